import type { Config } from '../config';
import type { Logger } from '../logger';
import { createPool } from '../db/pool';
import { migrate, type Migration } from '../db/migrate';
import { authMigrations } from '../auth/schema';
import { apiTokenMigrations } from '../auth/api-tokens';
import { idempotencyMigrations } from '../http/idempotency';
import { checkpointMigrations } from '../db/checkpoints';
import { SessionStore } from '../auth/session-store';
import { eventStoreMigrations } from '../event-store/postgres-schema';
import { createEventStore } from '../event-store/create-event-store';
import { readingTheContract } from '../event-store/contract-reads';
import type { ServiceContext } from '../http/context';
import { Supervisor } from '../supervision/supervisor';
import { shutDownInOrder } from './shutdown';

export interface OpenedContext extends ServiceContext {
  readonly databaseUrl: string;
  close(): Promise<void>;
}

/**
 * Connects a service to its database and event store and applies the migrations it needs
 * (event store and sessions always; the service passes its own).
 */
export async function openServiceContext(
  config: Config,
  log: Logger,
  databaseUrl: string,
  serviceMigrations: readonly Migration[],
): Promise<OpenedContext> {
  const pool = createPool(databaseUrl, 20);
  await migrate(pool, [
    ...(config.EVENTSTORE_URL ? [] : eventStoreMigrations),
    ...checkpointMigrations,
    ...authMigrations,
    ...apiTokenMigrations,
    ...idempotencyMigrations,
    ...serviceMigrations,
  ]);
  const storedEvents = createEventStore(config, pool, databaseUrl);
  const store = readingTheContract(storedEvents);
  const sessions = new SessionStore(pool, config.SESSION_TTL_HOURS, config.SESSION_CACHE_MS);
  const supervisor = new Supervisor({ log, databaseUrl });
  return {
    databaseUrl,
    config,
    log,
    pool,
    store,
    storedEvents,
    sessions,
    supervisor,
    close: () =>
      shutDownInOrder(log, [
        ['the followers of the event stream', () => supervisor.stopAll()],
        ['the event store', () => store.close()],
        ['the database pool', () => pool.end()],
      ]),
  };
}
