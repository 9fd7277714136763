import { statSync } from 'node:fs';
import path from 'node:path';
import { backoffDelay, type BackoffPolicy } from '@pf/events';
import { FOLLOWER_BACKOFF } from '../../supervision/backoff';
import { stopLeftoverPostmaster } from './leftover';
import { startEmbeddedPostgres } from './server';

export interface EmbeddedStatus {
  /** running: serving. restarting: it stopped by itself and is being started again. stopped: closed. */
  readonly state: 'running' | 'restarting' | 'stopped';
  /** How often it has been started again after stopping by itself. */
  readonly restarts: number;
  /** When it stopped (ms since the epoch), while restarting. */
  readonly downSince: number | null;
  readonly lastError: string | null;
}

export interface SupervisedEmbeddedDatabase {
  /** The same for every run of the server: the same socket (or port) and password. */
  readonly url: string;
  status(): EmbeddedStatus;
  /** Why the database cannot serve now (for /readyz), or null while it runs. */
  problem(): string | null;
  /** Set once it has not come back within the give-up time (for /healthz: restarting the process may help). */
  fatal(): string | null;
  stop(): Promise<void>;
}

interface SupervisionLog {
  info(details: object, message?: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
  debug(details: object, message: string): void;
}

export interface EmbeddedSupervisionOptions {
  readonly log: SupervisionLog;
  /** After this long down, /healthz fails (the server keeps being started again meanwhile). */
  readonly giveUpMs: number;
  readonly backoff?: BackoffPolicy;
  /** The data directory's own settings (backup.conf: the WAL archiving), written at the first start. */
  readonly settings?: readonly string[];
}

/** Which directory this is on disk: a directory put in its place (a restore) is another one. */
function identity(databaseDir: string): string | null {
  try {
    const stat = statSync(databaseDir);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return null;
  }
}

/**
 * The embedded PostgreSQL, watched as the followers of the event stream are (supervision/supervisor.ts):
 * when the postmaster exits by itself it is started again on the same data directory and socket, with the
 * followers' capped and jittered backoff, until it runs. The pool and the followers heal by themselves once it
 * is back (they reconnect with their own backoff). The stop is logged once, the return once.
 */
export async function superviseEmbeddedPostgres(dataDir: string, options: EmbeddedSupervisionOptions): Promise<SupervisedEmbeddedDatabase> {
  const { log, giveUpMs } = options;
  const backoff = options.backoff ?? FOLLOWER_BACKOFF;
  const postgresLog = (line: string) => log.debug({ postgres: line }, 'embedded PostgreSQL');
  const started = Date.now();
  if ((await stopLeftoverPostmaster(dataDir, (line) => log.info({}, line))) === 'stopped') {
    log.warn({ stopMs: Date.now() - started }, 'The PostgreSQL server left running by an earlier run was stopped; starting it afresh');
  }
  let current = await startEmbeddedPostgres(dataDir, postgresLog, undefined, options.settings);
  const { url, port } = current;
  const databaseDir = path.resolve(dataDir, 'postgres');
  const startedOn = identity(databaseDir);
  let state: EmbeddedStatus['state'] = 'running';
  let restarts = 0;
  let downSince: number | null = null;
  let lastError: string | null = null;
  let stopping = false;
  let signalStop: () => void = () => undefined;
  const stopRequested = new Promise<null>((resolve) => (signalStop = () => resolve(null)));
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      void stopRequested.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  const watch = async () => {
    while (!stopping) {
      const how = await Promise.race([current.exited, stopRequested]);
      if (how === null || stopping) return;
      const stoppedAt = Date.now();
      downSince = stoppedAt;
      state = 'restarting';
      lastError = `the server stopped (${how})`;
      log.error({ how }, 'The embedded PostgreSQL stopped by itself; starting it again with backoff until it runs');
      for (let attempt = 0; !stopping; attempt++) {
        try {
          // Followers and caches remember positions of the database they served: a restored one (an older past,
          // other transaction ids) is served only by a fresh start of the product (docs/operations/backups.md).
          const now = identity(databaseDir);
          if (now !== null && now !== startedOn) {
            throw new Error(
              `the data directory ${databaseDir} was replaced while the product ran (a restore?); start the product again to serve it`,
            );
          }
          const next = await startEmbeddedPostgres(dataDir, postgresLog, port);
          if (stopping) {
            await next.stop();
            return;
          }
          current = next;
          restarts++;
          log.info({ downMs: Date.now() - stoppedAt, attempts: attempt + 1, restarts }, 'The embedded PostgreSQL runs again');
          state = 'running';
          downSince = null;
          lastError = null;
          break;
        } catch (error) {
          lastError = (error as Error).message;
          log.debug({ err: error, attempt }, 'the embedded PostgreSQL did not start yet');
          await sleep(backoffDelay(attempt, backoff, Math.random));
        }
      }
    }
  };
  const watching = watch();

  return {
    url,
    status: () => ({ state, restarts, downSince, lastError }),
    problem: () => (state === 'restarting' ? `the embedded PostgreSQL is being started again (${lastError})` : null),
    fatal: () =>
      state === 'restarting' && downSince !== null && Date.now() - downSince >= giveUpMs
        ? `the embedded PostgreSQL could not be started again for ${Math.round((Date.now() - downSince) / 1000)} s: ${lastError}`
        : null,
    async stop() {
      stopping = true;
      signalStop();
      await watching;
      state = 'stopped';
      await current.stop();
    },
  };
}
