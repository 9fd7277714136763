import type { FastifyPluginAsync } from 'fastify';
import { analyticsFollower, ApiTokenStore, kafkaRelayFollower, sessionOrScopedToken, type ServiceContext } from '@pf/infra';
import { analyticsRoutes } from './daily-analytics/routes';
import { analyticsMigrations } from './daily-analytics/schema';
import { dailyAnalytics, DAILY_ANALYTICS_CONSUMER, DAILY_ANALYTICS_TABLES } from './daily-analytics/daily-analytics';
import { projectorFollower } from './projector/projector';
import { ReadModelProgress } from './projection-kit/progress';
import { READ_MODELS_PROJECTION } from './projector/checkpoint';
import { readModelMigrations, READ_MODEL_TABLES } from './read-models';
import { replayReadModelsMigration } from './projector/replay';
import { ANALYTICS_FACT_TABLES, analyticsFactsFollower, analyticsFactsMigrations, analyticsReportRoutes } from './read-models/analytics';
import { readRoutes } from './routes';
import { conversationStatusRoutes } from './read-models/conversation-status/routes';
import { historyRoutes } from './history/routes';
import { adminRebuildRoutes } from './rebuild/admin-routes';
import { systemRoutes } from './system/routes';
import { eventFeedRoutes } from './read-models/event-feed/routes';
import { erasedForPublishing } from './read-models/event-feed/published';

/** The projector's read-model tables. */
export { READ_MODEL_TABLES };
/** Every table `npm run rebuild` rebuilds: the projector's read models and the analytics consumers' facts and counts. */
export const REBUILT_TABLES: readonly string[] = [...READ_MODEL_TABLES, ...ANALYTICS_FACT_TABLES, ...DAILY_ANALYTICS_TABLES];
export {
  liveRebuild,
  rebuildReadModels,
  RebuildRunning,
  REBUILD_PARTS,
  UnknownReadModel,
  type RebuildProgress,
  type RebuildResult,
} from './rebuild';
export { projectReadModels } from './read-models';
export { erasureRule } from './read-models/erasure/projection';
export { ReadModelProgress } from './projection-kit/progress';
export { dailyAnalytics, readDailyAnalytics } from './daily-analytics/daily-analytics';

export const queryMigrations = [
  ...readModelMigrations,
  replayReadModelsMigration(READ_MODEL_TABLES),
  ...analyticsFactsMigrations,
  ...analyticsMigrations,
];

export interface QueryJobs {
  /** How far the read models are, for read-your-writes. */
  readonly progress: ReadModelProgress;
  /** Resolves when the projector and the analytics consumer have caught up with the events stored at start. */
  readonly caughtUp: Promise<void>;
  close(): Promise<void>;
}

/**
 * The read side's followers of the event stream, run by the process's supervisor: the projector (every copy
 * may run it; they share its checkpoint), the analytics consumer and, with KAFKA_BROKERS, the Kafka relay.
 */
export async function startQueryJobs(context: ServiceContext, options: { analytics?: boolean } = {}): Promise<QueryJobs> {
  const { pool, store, storedEvents, log, config, supervisor } = context;
  const progress = new ReadModelProgress(pool, READ_MODELS_PROJECTION);
  // The topic carries events as the feed hands them out: a deleted person's data removed (event-feed/published.ts).
  const erase = erasedForPublishing(pool, progress, config.READ_WAIT_TIMEOUT_MS);
  const relay = kafkaRelayFollower({ config, store: storedEvents, pool, logger: log, erase });
  const followers = [
    supervisor.run(projectorFollower(pool, store, progress)),
    // `analytics: false` only where no figure of Analytics & Reports is read (the simulation, docs/simulation.md).
    ...(options.analytics === false
      ? []
      : [
          supervisor.run(analyticsFollower({ name: DAILY_ANALYTICS_CONSUMER, pool, store, config, logger: log }, dailyAnalytics)),
          // The facts of Analytics & Reports and Market Intelligence (from Kafka when KAFKA_BROKERS is set).
          supervisor.run(analyticsFactsFollower({ pool, store, config, logger: log })),
        ]),
    ...(relay ? [supervisor.run(relay)] : []),
  ];
  return {
    progress,
    caughtUp: Promise.all(followers.map((follower) => follower.caughtUp)).then(() => undefined),
    async close() {
      await Promise.all(followers.map((follower) => follower.stop()));
    },
  };
}

/** The read side's HTTP: the GET endpoints and analytics, answered from the read models, to signed-in users. */
export const queryService: FastifyPluginAsync<ServiceContext & { progress: ReadModelProgress }> = async (app, options) => {
  // A session, or a job's API token on the few reads that accept one (the analytics reads).
  app.addHook('preValidation', sessionOrScopedToken(new ApiTokenStore(options.pool)));
  await app.register(readRoutes, options);
  await app.register(conversationStatusRoutes, options);
  await app.register(analyticsRoutes, options);
  // Outside readRoutes: these wait on the analytics consumer's checkpoint, not the projector's.
  await app.register(analyticsReportRoutes, options);
  await app.register(historyRoutes, options);
  await app.register(adminRebuildRoutes, options);
  await app.register(systemRoutes, options);
};

/**
 * The routes a job's API token opens (docs/event-feed.md), outside `queryService`: they answer a token, never a
 * session, so they are mounted beside it.
 */
export const tokenReadService: FastifyPluginAsync<ServiceContext & { progress: ReadModelProgress }> = async (app, options) => {
  await app.register(eventFeedRoutes, options);
};
