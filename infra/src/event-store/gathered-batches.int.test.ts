import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { START } from '@pf/events';
import { createPool } from '../db/pool';
import { migrate } from '../db/migrate';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { PostgresEventStore } from './postgres-event-store';
import { eventStoreMigrations } from './postgres-schema';
import type { RecordedEvent } from './port';

const metadata = { actor: { kind: 'system' as const, name: 'test' }, correlationId: randomUUID(), causationId: null };
const noted = (n: number) => ({ id: randomUUID(), type: 'Noted', data: { n }, metadata });

/** SubscribeOptions.minIntervalMs: a background follower takes a busy log in fewer, larger batches. */
describe('batches gathered at the head of the log (real PostgreSQL)', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: PostgresEventStore;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool(database.url, 10);
    await migrate(pool, eventStoreMigrations);
    store = new PostgresEventStore(pool, database.url);
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  it('takes what is appended during the interval as one batch, every event once and in order', async () => {
    const batches: number[][] = [];
    const subscription = store.subscribe(START, async (batch: readonly RecordedEvent[]) => void batches.push(batch.map((e) => (e.data as { n: number }).n)), { minIntervalMs: 400 });
    await subscription.caughtUp;
    await store.append('gather-1', [noted(1)], 'no_stream');
    await expect.poll(() => batches.length).toBe(1);
    // Three appends while the follower waits out its interval after the first batch.
    for (let n = 2; n <= 4; n++) await store.append('gather-1', [noted(n)], n - 2);
    await expect.poll(() => batches.flat().length, { timeout: 5000 }).toBe(4);
    expect(batches).toEqual([[1], [2, 3, 4]]);
    await subscription.close();
  });

  it('never slows catching up, and closes at once while it waits', async () => {
    for (let n = 0; n < 30; n++) await store.append(`gather-2-${n}`, [noted(n)], 'no_stream');
    const batches: number[] = [];
    const subscription = store.subscribe(START, async (batch: readonly RecordedEvent[]) => void batches.push(batch.length), { minIntervalMs: 60_000, batchSize: 10 });
    await expect.poll(() => batches.reduce((a, b) => a + b, 0), { timeout: 5000 }).toBe(34);
    // A close that waited out the minute-long interval would outlast the test's own timeout.
    await subscription.close();
  });
});
