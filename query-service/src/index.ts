import type { FastifyPluginAsync } from 'fastify';
import { authRoutes, startAnalyticsSource, startKafkaRelay, type ServiceContext } from '@pf/infra';
import { analyticsRoutes } from './analytics/routes';
import { analyticsMigrations } from './analytics/schema';
import { dailyAnalytics } from './analytics/daily-analytics';
import { startProjector } from './projector/projector';
import { ReadModelProgress } from './projector/progress';
import { READ_MODELS_PROJECTION } from './projector/checkpoint';
import { readModelMigrations } from './read-models/schema';
import { readRoutes } from './routes';

export { READ_MODEL_TABLES } from './read-models/schema';
export { rebuildReadModels } from './rebuild';
export { ReadModelProgress } from './projector/progress';
export { dailyAnalytics, readDailyAnalytics } from './analytics/daily-analytics';

export const queryMigrations = [...readModelMigrations, ...analyticsMigrations];

export interface QueryJobs {
  /** How far the read models are, for read-your-writes. */
  readonly progress: ReadModelProgress;
  /** Resolves when the projector and the analytics consumer have caught up with the events stored at start. */
  readonly caughtUp: Promise<void>;
  close(): Promise<void>;
}

/**
 * The read side's followers of the event stream: the projector (every copy may run it; they share its
 * checkpoint), the analytics consumer and, with KAFKA_BROKERS, the Kafka relay.
 */
export async function startQueryJobs(context: ServiceContext): Promise<QueryJobs> {
  const { pool, store, log, config } = context;
  const progress = new ReadModelProgress(pool, READ_MODELS_PROJECTION);
  const projector = await startProjector(pool, store, progress, log);
  const relay = await startKafkaRelay({ config, store, pool, logger: log });
  const analytics = await startAnalyticsSource(
    { name: 'daily', pool, store, config, logger: log, onError: (error) => log.error({ err: error }, 'the analytics consumer stopped') },
    dailyAnalytics,
  );
  return {
    progress,
    caughtUp: Promise.all([projector.caughtUp, analytics.caughtUp]).then(() => undefined),
    async close() {
      await Promise.all([projector.close(), analytics.close(), relay.close()]);
    },
  };
}

/** The read side's HTTP: sign-in routes, the GET endpoints and analytics, answered from the read models. */
export const queryService: FastifyPluginAsync<ServiceContext & { progress: ReadModelProgress }> = async (app, options) => {
  await app.register(authRoutes, { sessions: options.sessions, ttlHours: options.config.SESSION_TTL_HOURS });
  await app.register(readRoutes, options);
  await app.register(analyticsRoutes, options);
};
