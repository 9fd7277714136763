import { afterAll, beforeAll } from 'vitest';
import type pg from 'pg';
import { createPool } from '../db/pool';
import { migrate } from '../db/migrate';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { eventStoreMigrations } from '../event-store/postgres-schema';
import { createTestDatabase, type TestDatabase } from './database';

export interface EventStoreDatabase {
  readonly url: string;
  readonly pool: pg.Pool;
  readonly store: PostgresEventStore;
  /** Counts, from now on, the statements sent through the pool whose text `matches`. */
  count(matches: (sql: string) => boolean): () => number;
}

/**
 * Tests only (vitest): a fresh database with the event store's tables, a pool and a store on it for the file's
 * tests (created before them, dropped after), and a way to count the statements the store sends.
 */
export function eventStoreDatabase(poolSize = 10): EventStoreDatabase {
  let database: TestDatabase;
  const counters: { matches: (sql: string) => boolean; seen: number }[] = [];
  const handle = {
    url: '',
    pool: null as unknown as pg.Pool,
    store: null as unknown as PostgresEventStore,
    count(matches: (sql: string) => boolean) {
      const counter = { matches, seen: 0 };
      counters.push(counter);
      return () => counter.seen;
    },
  };
  beforeAll(async () => {
    database = await createTestDatabase();
    handle.url = database.url;
    handle.pool = createPool(database.url, poolSize);
    await migrate(handle.pool, eventStoreMigrations);
    const query = handle.pool.query.bind(handle.pool) as (...args: unknown[]) => Promise<unknown>;
    (handle.pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) => {
      const sql = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string } | undefined)?.text ?? '');
      for (const counter of counters) if (counter.matches(sql)) counter.seen += 1;
      return query(...args);
    };
    handle.store = new PostgresEventStore(handle.pool, database.url);
  });
  afterAll(async () => {
    await handle.store?.close();
    await handle.pool?.end();
    await database?.drop();
  });
  return handle;
}
