import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { START } from '@pf/events';
import { createPool } from '../db/pool';
import { migrate } from '../db/migrate';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { PostgresEventStore } from './postgres-event-store';
import { eventStoreMigrations } from './postgres-schema';

const metadata = { actor: { kind: 'system' as const, name: 'test' }, correlationId: randomUUID(), causationId: null };
const noted = (n: number) => ({ id: randomUUID(), type: 'Noted', data: { n }, metadata });
const numbers = (events: readonly { data: unknown }[]) => events.map((event) => (event.data as { n: number }).n);

/** Followers of one store read the log's tail together: one query while nothing new was appended. */
describe('shared reads of the tail (real PostgreSQL)', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: PostgresEventStore;
  let tailQueries = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool(database.url, 10);
    await migrate(pool, eventStoreMigrations);
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].includes('pg_snapshot_xmin') && args[0].includes('limit $3')) tailQueries += 1;
      return query(...args);
    };
    store = new PostgresEventStore(pool, database.url);
    await store.append('tail-1', [noted(1), noted(2), noted(3)], 'no_stream');
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  it('answers reads asked for at once from one query, each from its own position and up to its own limit', async () => {
    const all = await store.readAll(START, 100);
    tailQueries = 0;
    const [a, b, c] = await Promise.all([store.readAll(START, 100), store.readAll(all[0]!.position, 100), store.readAll(START, 2)]);
    expect(tailQueries).toBe(1);
    expect(numbers(a)).toEqual([1, 2, 3]);
    expect(numbers(b)).toEqual([2, 3]);
    expect(numbers(c)).toEqual([1, 2]);
  });

  it('does not share a read asked for before an append it would miss', async () => {
    tailQueries = 0;
    const first = store.readAll(START, 100);
    await store.append('tail-1', [noted(4)], 2); // wakes the store's followers: a read asked for now must see 4
    const second = await store.readAll(START, 100);
    expect(numbers(second)).toEqual([1, 2, 3, 4]);
    expect(tailQueries).toBe(2);
    await first;
  });

  it('reads on its own when the shared read was cut short by its limit before its position', async () => {
    const all = await store.readAll(START, 100);
    tailQueries = 0;
    const [short, after] = await Promise.all([store.readAll(START, 1), store.readAll(all[1]!.position, 100)]);
    expect(numbers(short)).toEqual([1]);
    expect(numbers(after)).toEqual([3, 4]);
    expect(tailQueries).toBe(2);
  });

  it('reads on its own from a position before the shared read\'s', async () => {
    const all = await store.readAll(START, 100);
    tailQueries = 0;
    const [later, earlier] = await Promise.all([store.readAll(all[2]!.position, 100), store.readAll(START, 100)]);
    expect(numbers(later)).toEqual([4]);
    expect(numbers(earlier)).toEqual([1, 2, 3, 4]);
    expect(tailQueries).toBe(2);
  });
});
