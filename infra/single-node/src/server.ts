import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  commandMigrations,
  commandService,
  startAutomation,
  startDealOpener,
  startIllustrationMaker,
  type AutomationOptions,
} from '@pf/command-service';
import {
  createHttpServer,
  createLogger,
  healthRoutes,
  metricsRoute,
  startTracing,
  idempotencyPlugin,
  injectCommandClient,
  notFoundHandler,
  openServiceContext,
  parseConfig,
  registeredRoutes,
  sessionPlugin,
  shutDownInOrder,
  type FollowerStatus,
  type RegisteredRoute,
} from '@pf/infra';
import type { Position } from '@pf/events';
import { superviseEmbeddedPostgres, type SupervisedEmbeddedDatabase } from '@pf/infra/embedded';
import {
  backupSettings,
  backupStatus,
  BackupReplica,
  objectStoreSettings,
  prepareBackupDir,
  scheduleBaseBackups,
  scheduleReplica,
  serverBackupSettings,
} from '@pf/infra/backup';
import { queryMigrations, queryService, startQueryJobs, tokenReadService } from '@pf/query-service';
import { attachRealtimeGateway } from '@pf/realtime-gateway';

const here = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_CONSOLE_DIST = path.resolve(here, '../../../console/dist');

export interface RunningServer {
  readonly url: string;
  readonly databaseUrl: string;
  /** Resolves when the read models, the analytics and the gateway have caught up with the stored events. */
  readonly caughtUp: Promise<void>;
  /** Every HTTP route it answers, as added (for checking that /docs describes them all). */
  readonly routes: readonly RegisteredRoute[];
  /** What a simulation looks at to know the node is idle (every follower at the head, no move pending). */
  readonly probe: {
    followers(): FollowerStatus[];
    headPosition(): Promise<Position>;
    automationPending(): number;
    checkResponseTimes(): Promise<void>;
  };
  close(): Promise<void>;
}

export interface SingleNodeOptions {
  /** The automation's clock and randomness (a simulation supplies seeded ones). */
  readonly automation?: AutomationOptions;
  /** False: no analytics consumers (a simulation that reads none of their figures spares their work per event). */
  readonly analytics?: boolean;
}

/**
 * The single-node product: the three services in one Fastify process on one port, the console's
 * built files on the same origin, and PostgreSQL (DATABASE_URL, else an embedded server under DATA_DIR).
 */
export async function startSingleNode(
  env: Record<string, string | undefined> = process.env,
  options: SingleNodeOptions = {},
): Promise<RunningServer> {
  const config = parseConfig(env);
  const log = createLogger(config.LOG_LEVEL, 'property-finance');
  const tracing = startTracing(config, 'property-finance');

  let embedded: SupervisedEmbeddedDatabase | null = null;
  let databaseUrl = config.DATABASE_URL;
  // Continuous backup of the embedded database, on by default (docs/operations/backups.md).
  const backups = backupSettings(config);
  if (backups) await prepareBackupDir(backups);
  if (!databaseUrl) {
    // Started again when it stops by itself (docs/operations/embedded-database.md).
    embedded = await superviseEmbeddedPostgres(config.DATA_DIR, {
      log,
      giveUpMs: config.EMBEDDED_DATABASE_GIVE_UP_SECONDS * 1000,
      settings: serverBackupSettings(backups),
    });
    databaseUrl = embedded.url;
    log.info({ dataDir: path.resolve(config.DATA_DIR) }, 'embedded PostgreSQL started');
  }

  const context = await openServiceContext(config, log, databaseUrl, [...commandMigrations, ...queryMigrations]);
  const consoleDist = path.resolve(config.CONSOLE_DIST ?? DEFAULT_CONSOLE_DIST);
  const hasConsole = existsSync(path.join(consoleDist, 'index.html'));

  // Page routes (/dashboard, /conversations/7, ...) are the console's: answer them with its index.html.
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    const isPage = request.method === 'GET' && !request.url.startsWith('/api/') && !path.extname(request.url.split('?')[0]!);
    if (isPage && hasConsole) return reply.type('text/html').sendFile('index.html');
    return notFoundHandler(request, reply);
  };
  const app = await createHttpServer(config, log, { notFound });
  await app.register(sessionPlugin, { sessions: context.sessions });
  await app.register(idempotencyPlugin, { pool: context.pool, ttlHours: config.IDEMPOTENCY_KEY_TTL_HOURS });
  const queryJobs = await startQueryJobs(context, options.analytics === false ? { analytics: false } : {});
  await app.register(queryService, { ...context, progress: queryJobs.progress });
  await app.register(tokenReadService, { ...context, progress: queryJobs.progress });
  await app.register(commandService, context);
  if (hasConsole) {
    await app.register(fastifyStatic, { root: consoleDist, wildcard: false, index: 'index.html' });
  } else {
    log.warn(`The console is not built (${consoleDist}); run npm run build -w console`);
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/plain').send('The API is running; the console is not built yet: npm run build -w console'),
    );
  }

  const gateway = attachRealtimeGateway(app.server, { ...context, commands: injectCommandClient(app) });
  const automation = config.AUTOMATION === 'on' ? startAutomation(context, options.automation ?? {}) : null;
  const dealOpener = startDealOpener(context);
  const illustrations = startIllustrationMaker(context);
  const objectStore = backups ? objectStoreSettings(config) : null;
  const replica = backups && objectStore ? scheduleReplica(backups, new BackupReplica(objectStore), backups.retentionMs, log) : null;
  const baseBackups = backups
    ? scheduleBaseBackups(context.pool, config.DATA_DIR, backups, log, () => replica?.copyNow() ?? Promise.resolve())
    : null;
  const backup = backups ? { status: () => backupStatus(context.pool, backups, new Date(), replica?.state() ?? null) } : null;
  await app.register(healthRoutes, { ...context, ...(embedded ? { embedded } : {}), ...(backup ? { backup } : {}) });
  await app.register(metricsRoute, { ...context, ...(embedded ? { embedded } : {}) });

  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://localhost:${port}`;
  log.info(`Property finance console on ${url} (PostgreSQL: ${embedded ? 'embedded' : new URL(databaseUrl).host})`);

  return {
    url,
    databaseUrl,
    caughtUp: Promise.all([queryJobs.caughtUp, gateway.ready]).then(() => undefined),
    routes: registeredRoutes(app),
    probe: {
      followers: () => context.supervisor.statuses(),
      headPosition: () => context.store.headPosition(),
      automationPending: () => automation?.pending() ?? 0,
      checkResponseTimes: async () => automation?.checkResponseTimes(),
    },
    close: () =>
      shutDownInOrder(log, [
        ['the automation', () => automation?.close()],
        ['the deal opener', () => dealOpener.close()],
        ['the illustration maker', () => illustrations.close()],
        ['the base backups', () => baseBackups?.close()],
        ['the copy to the object store', () => replica?.close()],
        ['the realtime gateway', () => gateway.close()],
        ['the HTTP server', () => app.close()],
        ["the read side's followers", () => queryJobs.close()],
        ['the service context', () => context.close()],
        ['the embedded PostgreSQL', () => embedded?.stop()],
        ['the traces', () => tracing.close()],
      ]),
  };
}
