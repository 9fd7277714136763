import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../config';
import { createLogger } from '../logger';
import type { Migration } from '../db/migrate';
import { createHttpServer } from '../http/server';
import { sessionPlugin } from '../auth/plugin';
import { healthRoutes } from '../http/health';
import { metricsRoute } from '../observability/metrics-route';
import { startTracing } from '../observability/tracing';
import { idempotencyPlugin } from '../http/idempotency';
import { openServiceContext, type OpenedContext } from './service-context';
import { shutDownInOrder } from './shutdown';

export interface Mounted {
  /** Resolves when the service can take requests (GET /readyz answers 503 until then). */
  readonly ready?: Promise<void>;
  close?(): Promise<void>;
}

/**
 * Runs one service on its own (distributed deployment): validated config, DATABASE_URL required,
 * migrations, the HTTP shell with sessions, GET /healthz and /readyz, graceful stop on SIGINT/SIGTERM.
 */
export async function runStandalone(
  name: string,
  migrations: readonly Migration[],
  mount: (app: FastifyInstance, context: OpenedContext) => Promise<Mounted | void>,
  required: readonly (keyof Config)[] = [],
): Promise<void> {
  const config = loadConfig();
  const missing = (['DATABASE_URL', ...required] as const).filter((key) => !config[key]);
  for (const key of missing) process.stderr.write(`Missing setting ${key}: the standalone ${name} needs it\n`);
  if (missing.length > 0) process.exit(78);

  const log = createLogger(config.LOG_LEVEL, name);
  const tracing = startTracing(config, name);
  const context = await openServiceContext(config, log, config.DATABASE_URL!, migrations);
  const app = await createHttpServer(config, log, { title: `Property-finance ${name}` });
  await app.register(sessionPlugin, { sessions: context.sessions });
  await app.register(idempotencyPlugin, { pool: context.pool, ttlHours: config.IDEMPOTENCY_KEY_TTL_HOURS });
  const mounted = (await mount(app, context)) ?? {};
  await app.register(healthRoutes, { ...context, ...(mounted.ready ? { started: mounted.ready } : {}) });
  await app.register(metricsRoute, context);
  await app.listen({ port: config.PORT, host: config.HOST });

  const stop = async () => {
    await shutDownInOrder(log, [
      [`the ${name}'s own work`, () => mounted.close?.()],
      ['the HTTP server', () => app.close()],
      ['the service context', () => context.close()],
      ['the traces', () => tracing.close()],
    ]);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}
