import type pg from 'pg';
import { formatPosition, healthView, notLiveAnswer, notReadyAnswer, readinessView } from '@pf/events';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { EventStore } from '../event-store/port';
import type { FollowerStatus, Supervisor } from '../supervision/supervisor';
import { RETRY_AFTER_SECONDS } from '../db/unavailable';
import type { BackupStatus } from '../backup/status';

export interface HealthOptions {
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly supervisor: Supervisor;
  readonly config: Pick<Config, 'READY_MAX_LAG_EVENTS'>;
  /** Resolves when the service has finished starting (until then it is not ready). */
  readonly started?: Promise<void>;
  /** A database this process runs itself (the single node's embedded PostgreSQL) and starts again when it stops. */
  readonly embedded?: {
    /** Why it cannot serve now, or null. */
    problem(): string | null;
    /** Set once it could not be brought back: a restart of the process is the remaining remedy. */
    fatal(): string | null;
  };
  /** The embedded database's backups: reported, and a stopped backup warned of, without withholding readiness. */
  readonly backup?: { status(): Promise<BackupStatus> };
}

const DATABASE_TIMEOUT_MS = 1500;

export interface FollowerReadiness {
  readonly name: string;
  readonly state: FollowerStatus['state'];
  readonly position: string | null;
  /** Events stored after its position; null when unknown (the database is down, or it follows Kafka). */
  readonly lag: number | null;
  readonly lastError: string | null;
  readonly restarts: number;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * GET /healthz: liveness, the process answers (a restart will not help an outage of a database it does not run, so
 * it says ok); 503 when it runs its database itself and could not start it again (docs/operations/embedded-database.md).
 * GET /readyz: readiness, 503 with the reasons unless the database answers a short query, every follower of
 * the event stream is running (or on standby behind another copy's lead) and none lags by more than
 * READY_MAX_LAG_EVENTS events. Each follower's state, position and lag are in the answer either way.
 */
export const healthRoutes: FastifyPluginAsyncZod<HealthOptions> = async (app, options) => {
  const { pool, store, supervisor, config } = options;
  let started = options.started === undefined;
  void options.started?.then(() => (started = true));
  const cap = config.READY_MAX_LAG_EVENTS + 1;
  let lastBackupWarning = '';

  app.get(
    '/healthz',
    {
      schema: {
        summary: 'Liveness: the process answers (503 when its embedded database cannot be started again)',
        response: { 200: healthView, 503: notLiveAnswer },
      },
    },
    async (_request, reply) => {
      const fatal = options.embedded?.fatal() ?? null;
      if (fatal === null) return { status: 'ok' as const };
      return reply.status(503).send({ status: 'failing' as const, message: `Not live: ${fatal}` });
    },
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness: the database and every follower with its lag (503 when not ready)',
        response: { 200: readinessView, 503: notReadyAnswer },
      },
    },
    async (request, reply) => {
      const problems: string[] = [];
      if (!started) problems.push('the service is starting');
      const embeddedProblem = options.embedded?.problem() ?? null;
      if (embeddedProblem) problems.push(embeddedProblem);

      let database: { ok: true; ms: number } | { ok: false; error: string };
      const began = performance.now();
      try {
        await withTimeout(pool.query('select 1'), DATABASE_TIMEOUT_MS, 'the database');
        database = { ok: true, ms: Math.round(performance.now() - began) };
      } catch (error) {
        database = { ok: false, error: (error as Error).message };
        problems.push(`database unreachable: ${(error as Error).message}`);
      }

      const followers: FollowerReadiness[] = [];
      for (const status of supervisor.statuses()) {
        let lag: number | null = null;
        if (database.ok && status.position && status.state !== 'standby') {
          lag = await withTimeout(store.readAll(status.position, cap), DATABASE_TIMEOUT_MS, 'the event store').then(
            (events) => events.length,
            () => null,
          );
        }
        followers.push({
          name: status.name,
          state: status.state,
          position: status.position ? formatPosition(status.position) : null,
          lag,
          lastError: status.lastError,
          restarts: status.restarts,
        });
        if (status.state !== 'running' && status.state !== 'standby') {
          problems.push(
            `${status.name} is ${status.state}${status.state === 'failing' && status.lastError ? ` (${status.lastError})` : ''}`,
          );
        } else if (lag !== null && lag > config.READY_MAX_LAG_EVENTS) {
          problems.push(`${status.name} lags by more than ${config.READY_MAX_LAG_EVENTS} events`);
        }
      }

      let backup: BackupStatus | undefined;
      if (options.backup && database.ok) {
        backup = await withTimeout(options.backup.status(), DATABASE_TIMEOUT_MS, 'the backup status').catch(
          (error: unknown): BackupStatus => ({
            dir: '',
            lastBaseBackupAt: null,
            lastBaseBackupBytes: null,
            lastArchivedWal: null,
            lastArchivedAt: null,
            objectStore: null,
            warnings: [`the backup status could not be read: ${(error as Error).message}`],
          }),
        );
        // Logged when the warnings change, not at every probe.
        const said = backup.warnings.join('; ');
        if (said !== lastBackupWarning && said) request.log.warn({ warnings: backup.warnings }, 'backups need attention');
        lastBackupWarning = said;
      }
      const details = { database, followers, ...(backup ? { backup } : {}) };
      if (problems.length === 0) return { status: 'ready' as const, ...details };
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ status: 'not ready', message: `Not ready: ${problems.join('; ')}`, ...details });
    },
  );
};
