import type { FastifyPluginAsync } from 'fastify';
import {
  authRoutes,
  startAnalyticsSource,
  startKafkaRelay,
  type AnalyticsSource,
  type KafkaRelayService,
  type ServiceContext,
  type Subscription,
} from '@pf/infra';
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

export interface QueryServiceOptions extends ServiceContext {
  /** Follow the event store and keep the read models up to date (every copy may; they share the checkpoint). */
  readonly runProjector?: boolean;
  /** Run the analytics consumer and, with KAFKA_BROKERS, the Kafka relay. */
  readonly runStreamJobs?: boolean;
}

/** The read side: sign-in routes, the GET endpoints, the projector that feeds them, and the stream jobs. */
export const queryService: FastifyPluginAsync<QueryServiceOptions> = async (app, options) => {
  const progress = new ReadModelProgress(options.pool, READ_MODELS_PROJECTION);
  let projector: Subscription | null = null;
  let analytics: AnalyticsSource | null = null;
  let relay: KafkaRelayService | null = null;
  if (options.runProjector !== false) {
    projector = await startProjector(options.pool, options.store, progress, options.log);
  }
  if (options.runStreamJobs !== false) {
    relay = await startKafkaRelay({ config: options.config, store: options.store, pool: options.pool, logger: options.log });
    analytics = await startAnalyticsSource(
      {
        name: 'daily',
        pool: options.pool,
        store: options.store,
        config: options.config,
        logger: options.log,
        onError: (error) => options.log.error({ err: error }, 'the analytics consumer stopped'),
      },
      dailyAnalytics,
    );
  }
  app.addHook('onClose', async () => {
    await Promise.all([projector?.close(), analytics?.close(), relay?.close()]);
  });
  await app.register(authRoutes, { sessions: options.sessions, ttlHours: options.config.SESSION_TTL_HOURS });
  await app.register(readRoutes, { ...options, progress });
  await app.register(analyticsRoutes, options);
};
