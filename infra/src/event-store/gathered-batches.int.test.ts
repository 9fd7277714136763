import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { START } from '@pf/events';
import { eventStoreDatabase } from '../testing/event-store-database';
import type { StoredEvent } from './port';

const metadata = { actor: { kind: 'system' as const, name: 'test' }, correlationId: randomUUID(), causationId: null };
const noted = (n: number) => ({ id: randomUUID(), type: 'Noted', data: { n }, metadata });

/** SubscribeOptions.minIntervalMs: a background follower takes a busy log in fewer, larger batches. */
describe('batches gathered at the head of the log (real PostgreSQL)', () => {
  const database = eventStoreDatabase();

  it('takes what is appended during the interval as one batch, every event once and in order', async () => {
    const batches: number[][] = [];
    const subscription = database.store.subscribe(
      START,
      async (batch: readonly StoredEvent[]) => void batches.push(batch.map((e) => (e.data as { n: number }).n)),
      { minIntervalMs: 400 },
    );
    await subscription.caughtUp;
    await database.store.append('gather-1', [noted(1)], 'no_stream');
    await expect.poll(() => batches.length).toBe(1);
    // Three appends while the follower waits out its interval after the first batch.
    for (let n = 2; n <= 4; n++) await database.store.append('gather-1', [noted(n)], n - 2);
    await expect.poll(() => batches.flat().length, { timeout: 5000 }).toBe(4);
    expect(batches).toEqual([[1], [2, 3, 4]]);
    await subscription.close();
  });

  it('never slows catching up, and closes at once while it waits', async () => {
    for (let n = 0; n < 30; n++) await database.store.append(`gather-2-${n}`, [noted(n)], 'no_stream');
    const batches: number[] = [];
    const subscription = database.store.subscribe(START, async (batch: readonly StoredEvent[]) => void batches.push(batch.length), {
      minIntervalMs: 60_000,
      batchSize: 10,
    });
    await expect.poll(() => batches.reduce((a, b) => a + b, 0), { timeout: 5000 }).toBe(34);
    // A close that waited out the minute-long interval would outlast the test's own timeout.
    await subscription.close();
  });
});
