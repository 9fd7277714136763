import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMetadata } from '@pf/events';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import { ConcurrencyConflict, Invalid } from '../errors';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import type { NewEvent } from './port';
import { PostgresEventStore } from './postgres-event-store';
import { eventStoreMigrations } from './postgres-schema';
import { verifyStreams } from './verify';

const metadata: EventMetadata = { actor: { kind: 'system', name: 'group-commit' }, correlationId: 'c', causationId: null };
const event = (n: number): NewEvent => ({ id: randomUUID(), type: 'Tested', data: { n, text: 'it\'s \\ "quoted" — £5' }, metadata });
const stream = (label: string) => `${label}-${randomUUID()}`;

/**
 * Group commit (group-commit.ts): appends queued while a transaction is in flight go together in the next
 * one. One lane here, so what is queued behind a first append is one group: the events of one transaction
 * share the transaction id, the first half of their position.
 */
describe('PostgreSQL event store: group commit', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let store: PostgresEventStore;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool(database.url, 10);
    await migrate(pool, eventStoreMigrations);
    store = new PostgresEventStore(pool, database.url, 1);
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  /** Starts an append that takes the lane, so everything appended in the same tick after it is one group. */
  const occupyLane = () => store.append(stream('first'), [event(0)], 'no_stream');

  it('writes appends queued together in one transaction, each checked against its stream as the ones before it left it', async () => {
    const shared = stream('shared');
    const other = stream('other');
    const first = occupyLane();
    const a = store.append(shared, [event(1), event(2)], 'no_stream');
    const b = store.append(shared, [event(3)], 1);
    const c = store.append(other, [event(4)], 'any');
    const stale = store.append(shared, [event(5)], 'no_stream').catch((error: unknown) => error);
    await first;
    const [ra, rb, rc] = await Promise.all([a, b, c]);
    const conflict = await stale;
    expect(conflict).toBeInstanceOf(ConcurrencyConflict);
    expect((conflict as Error).message).toContain('expected version no_stream, found 2');

    expect([ra.nextExpectedVersion, rb.nextExpectedVersion, rc.nextExpectedVersion]).toEqual([1, 2, 0]);
    expect(ra.position.commit).toBe(rb.position.commit);
    expect(rb.position.commit).toBe(rc.position.commit);
    expect(rb.position.prepare).toBeGreaterThan(ra.position.prepare);
    const read = await store.readStream(shared);
    expect(read.map((e) => [e.streamVersion, (e.data as { n: number }).n])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(read[1]!.previousHash).toBe(read[0]!.hash);
    expect(read[2]!.previousHash).toBe(read[1]!.hash);
    expect(await store.streamHead(shared)).toEqual({ version: 2, hash: read[2]!.hash });
    const verified = await verifyStreams(store, [shared, other]);
    expect(verified.map((v) => [v.intact, v.events])).toEqual([
      [true, 3],
      [true, 1],
    ]);
  });

  it('chains a stream that already has events to its stored head', async () => {
    const name = stream('continued');
    await store.append(name, [event(1)], 'no_stream');
    const first = occupyLane();
    const next = store.append(name, [event(2)], 0);
    const after = store.append(name, [event(3), event(4)], 1);
    await first;
    expect((await after).nextExpectedVersion).toBe(3);
    expect((await next).position.commit).toBe((await after).position.commit);
    const [verified] = await verifyStreams(store, [name]);
    expect(verified).toMatchObject({ intact: true, events: 4, headVersion: 3 });
  });

  it('answers a retry queued beside its original, and a retry of an earlier append, as the first append, storing nothing twice', async () => {
    const name = stream('retried');
    const events = [event(1), event(2)];
    const first = occupyLane();
    const original = store.append(name, events, 'no_stream');
    const copy = store.append(name, events, 'no_stream');
    await first;
    const [ro, rc] = await Promise.all([original, copy]);
    expect(rc).toEqual(ro);

    const later = occupyLane();
    const again = store.append(name, events, 'no_stream');
    const fresh = store.append(stream('beside'), [event(3)], 'no_stream');
    await later;
    expect(await again).toEqual(ro);
    expect((await fresh).nextExpectedVersion).toBe(0);
    expect(await store.readStream(name)).toHaveLength(2);
  });

  it('answers a retry with "any" as the first append, and still stores the others of its group', async () => {
    const name = stream('retried-any');
    const events = [event(1), event(2)];
    const original = await store.append(name, events, 'any');
    const first = occupyLane();
    const again = store.append(name, events, 'any');
    const beside = store.append(name, [event(3)], original.nextExpectedVersion);
    const fresh = store.append(stream('beside'), [event(4)], 'no_stream');
    await first;
    expect(await again).toEqual(original);
    expect((await beside).nextExpectedVersion).toBe(2);
    expect((await fresh).nextExpectedVersion).toBe(0);
    expect(await store.readStream(name)).toHaveLength(3);
  });

  it('fails only the member PostgreSQL refuses, and still stores the others of its group', async () => {
    const good = stream('good');
    const bad = stream('bad');
    const first = occupyLane();
    const rejected = store.append(bad, [{ ...event(1), id: 'not-a-uuid' }], 'no_stream');
    const written = store.append(good, [event(2)], 'no_stream');
    const partlyStored = store.append(stream('elsewhere'), [event(3)], 'no_stream');
    const unwritable = store.append(stream('bigint'), [{ ...event(4), data: { amount: 5n } }], 'no_stream');
    // Both failures are awaited together, so neither is left without a handler while the other settles.
    const failures = Promise.all([expect(unwritable).rejects.toThrow(/BigInt/), expect(rejected).rejects.toMatchObject({ code: '22P02' })]);
    await first;
    await failures;
    expect((await written).nextExpectedVersion).toBe(0);
    await partlyStored;
    expect(await store.readStream(bad)).toHaveLength(0);
    expect(await store.readStream(good)).toHaveLength(1);
  });

  it('refuses an append whose ids are stored with other events, without failing its group', async () => {
    const name = stream('mixed');
    const stored = event(1);
    await store.append(name, [stored], 'no_stream');
    const first = occupyLane();
    const mixed = store.append(stream('other'), [stored, event(2)], 'no_stream').catch((error: unknown) => error);
    const fine = store.append(name, [event(3)], 0);
    await first;
    expect(await mixed).toBeInstanceOf(Invalid);
    expect((await fine).nextExpectedVersion).toBe(1);
  });

  it("keeps each writer's stream in order under many writers, every stream chained and at its head", async () => {
    const names = Array.from({ length: 12 }, () => stream('writer'));
    await Promise.all(
      names.map(async (name) => {
        let expected: number | 'no_stream' = 'no_stream';
        for (let n = 0; n < 15; n++) expected = (await store.append(name, [event(n)], expected)).nextExpectedVersion;
      }),
    );
    for (const name of names) {
      expect((await store.readStream(name)).map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: 15 }, (_, n) => n));
    }
    const verified = await verifyStreams(store, names);
    expect(verified.every((v) => v.intact && v.events === 15)).toBe(true);
  });
});
