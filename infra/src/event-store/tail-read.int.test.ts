import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { START } from '@pf/events';
import { eventStoreDatabase } from '../testing/event-store-database';
import type { PostgresEventStore } from './postgres-event-store';

const metadata = { actor: { kind: 'system' as const, name: 'test' }, correlationId: randomUUID(), causationId: null };
const noted = (n: number) => ({ id: randomUUID(), type: 'Noted', data: { n }, metadata });
const numbers = (events: readonly { data: unknown }[]) => events.map((event) => (event.data as { n: number }).n);

/** Followers of one store read the log's tail together: one query while nothing new was appended. */
describe('shared reads of the tail (real PostgreSQL)', () => {
  const database = eventStoreDatabase();
  let store: PostgresEventStore;
  let counted: () => number;
  let from = 0;
  /** Reads of the log's tail since the last call. */
  const tailQueries = () => counted() - from;
  const resetCount = () => void (from = counted());

  beforeAll(async () => {
    store = database.store;
    counted = database.count((sql) => sql.includes('pg_snapshot_xmin') && sql.includes('limit $3'));
    await store.append('tail-1', [noted(1), noted(2), noted(3)], 'no_stream');
  });

  it('answers reads asked for at once from one query, each from its own position and up to its own limit', async () => {
    const all = await store.readAll(START, 100);
    resetCount();
    const [a, b, c] = await Promise.all([store.readAll(START, 100), store.readAll(all[0]!.position, 100), store.readAll(START, 2)]);
    expect(tailQueries()).toBe(1);
    expect(numbers(a)).toEqual([1, 2, 3]);
    expect(numbers(b)).toEqual([2, 3]);
    expect(numbers(c)).toEqual([1, 2]);
  });

  it('does not share a read asked for before an append it would miss', async () => {
    resetCount();
    const first = store.readAll(START, 100);
    await store.append('tail-1', [noted(4)], 2); // wakes the store's followers: a read asked for now must see 4
    const second = await store.readAll(START, 100);
    expect(numbers(second)).toEqual([1, 2, 3, 4]);
    expect(tailQueries()).toBe(2);
    await first;
  });

  it('reads on its own when the shared read was cut short by its limit before its position', async () => {
    const all = await store.readAll(START, 100);
    resetCount();
    const [short, after] = await Promise.all([store.readAll(START, 1), store.readAll(all[1]!.position, 100)]);
    expect(numbers(short)).toEqual([1]);
    expect(numbers(after)).toEqual([3, 4]);
    expect(tailQueries()).toBe(2);
  });

  it("reads on its own from a position before the shared read's", async () => {
    const all = await store.readAll(START, 100);
    resetCount();
    const [later, earlier] = await Promise.all([store.readAll(all[2]!.position, 100), store.readAll(START, 100)]);
    expect(numbers(later)).toEqual([4]);
    expect(numbers(earlier)).toEqual([1, 2, 3, 4]);
    expect(tailQueries()).toBe(2);
  });

  it('reads lean when asked, on its own: the same events, without their links in the hash chain', async () => {
    resetCount();
    const [full, lean] = await Promise.all([store.readAll(START, 100), store.readAll(START, 100, { lean: true })]);
    expect(tailQueries()).toBe(2);
    expect(full.every((event) => typeof event.hash === 'string' && event.hash.length === 64)).toBe(true);
    expect(lean.map((event) => [event.hash, event.previousHash])).toEqual(full.map(() => [undefined, undefined]));
    const withoutLinks = (events: typeof full) => events.map(({ hash: _hash, previousHash: _previous, ...event }) => event);
    expect(withoutLinks(lean)).toEqual(withoutLinks(full));
  });
});
