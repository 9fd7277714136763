import type { FastifyPluginAsync } from 'fastify';
import { authRoutes, type ServiceContext, type Subscription } from '@pf/infra';
import { startProjector } from './projector/projector';
import { ReadModelProgress } from './projector/progress';
import { READ_MODELS_PROJECTION } from './projector/checkpoint';
import { readRoutes } from './routes';

export { readModelMigrations, READ_MODEL_TABLES } from './read-models/schema';
export { rebuildReadModels } from './rebuild';
export { ReadModelProgress } from './projector/progress';

export interface QueryServiceOptions extends ServiceContext {
  /** Follow the event store and keep the read models up to date (every copy may; they share the checkpoint). */
  readonly runProjector?: boolean;
}

/** The read side: sign-in routes, the GET endpoints and the projector that feeds them. */
export const queryService: FastifyPluginAsync<QueryServiceOptions> = async (app, options) => {
  const progress = new ReadModelProgress(options.pool, READ_MODELS_PROJECTION);
  let projector: Subscription | null = null;
  if (options.runProjector !== false) {
    projector = await startProjector(options.pool, options.store, progress, options.log);
  }
  app.addHook('onClose', async () => projector?.close());
  await app.register(authRoutes, { sessions: options.sessions, ttlHours: options.config.SESSION_TTL_HOURS });
  await app.register(readRoutes, { ...options, progress });
};
