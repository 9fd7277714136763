import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '@pf/events';
import {
  ConcurrencyConflict,
  createEventStore,
  PreconditionFailed,
  readingTheContract,
  type EventStore,
  type RecordedEvent,
} from '@pf/infra';
import { handleCommand, type Decider } from './handle-command';
import { StreamCache, type StoredFact } from './stream-cache';
import { commandContextForTests } from './testing/service-context';

const metadata = { actor: { kind: 'system' as const, name: 'test' }, correlationId: randomUUID(), causationId: null };
/** A real event of the contract (the cache reads every event through the one reader, which validates it): a note's text is the name. */
const note = (text: string) => ({ id: randomUUID(), type: 'FirmRenamed', data: { firmId: 'note', name: text }, metadata });
const textOf = (fact: StoredFact) => (fact.type === 'FirmRenamed' ? fact.data.name : '');

/** The store, with every readStream call's starting version and the number of events it answered. */
function countingStore(store: EventStore) {
  const reads: { stream: string; from: number; answered: number }[] = [];
  const counting = Object.create(store) as EventStore;
  counting.readStream = async (stream: string, from = 0) => {
    const events = await store.readStream(stream, from);
    reads.push({ stream, from, answered: events.length });
    return events;
  };
  return { store: counting, reads };
}

/** One database for the file: each test uses streams of its own. */
const service = commandContextForTests();

const texts = (events: readonly StoredFact[]) => events.map(textOf);

describe('the command side reads each stream once, then only what is new (real PostgreSQL)', () => {
  // docs/decisions/stream-cache.md: a command reads only the events after what the cache holds.
  it('answers the whole stream every time, reading from the store only the events after those it holds', async () => {
    const { store, reads } = countingStore(service.context.store);
    const cache = new StreamCache(store);
    await service.context.store.append('note-1', [note('a'), note('b')], 'no_stream');

    expect(texts(await cache.read('note-1'))).toEqual(['a', 'b']);
    expect(texts(await cache.read('note-1'))).toEqual(['a', 'b']);
    await service.context.store.append('note-1', [note('c')], 1);
    expect(texts(await cache.read('note-1'))).toEqual(['a', 'b', 'c']);
    expect(reads).toEqual([
      { stream: 'note-1', from: 0, answered: 2 },
      { stream: 'note-1', from: 2, answered: 0 },
      { stream: 'note-1', from: 2, answered: 1 },
    ]);
  });

  it('sees what another process appended (its own store on the same database) before the next decision', async () => {
    const cache = new StreamCache(service.context.store);
    await service.context.store.append('note-2', [note('mine')], 'no_stream');
    expect(texts(await cache.read('note-2'))).toEqual(['mine']);

    const elsewhere = readingTheContract(createEventStore({}, service.context.pool, service.context.databaseUrl));
    await elsewhere.append('note-2', [note('theirs')], 0);
    expect(texts(await cache.read('note-2'))).toEqual(['mine', 'theirs']);
    await elsewhere.close();
  });

  // docs/decisions/stream-cache.md: bounded by the event count, least recently used first out.
  it('keeps at most its bound of events, letting the least recently used streams go first', async () => {
    const { store, reads } = countingStore(service.context.store);
    const cache = new StreamCache(store, 5);
    for (const name of ['lru-a', 'lru-b', 'lru-c'])
      await service.context.store.append(name, [note(`${name} 1`), note(`${name} 2`)], 'no_stream');

    await cache.read('lru-a');
    await cache.read('lru-b');
    await cache.read('lru-a'); // a is now the most recent
    await cache.read('lru-c'); // 6 events: b, the least recent, goes
    expect(cache.size()).toEqual({ streams: 2, events: 4 });

    reads.length = 0;
    await cache.read('lru-a');
    await cache.read('lru-b');
    expect(reads).toEqual([
      { stream: 'lru-a', from: 2, answered: 0 },
      { stream: 'lru-b', from: 0, answered: 2 },
    ]);
    expect(cache.size().events).toBeLessThanOrEqual(5);
  });

  it('never keeps a stream longer than its bound, and answers it whole all the same', async () => {
    const cache = new StreamCache(service.context.store, 2);
    await service.context.store.append('long', [note('1'), note('2'), note('3')], 'no_stream');
    expect(texts(await cache.read('long'))).toEqual(['1', '2', '3']);
    expect(cache.size()).toEqual({ streams: 0, events: 0 });
  });

  it('holds what this process appended, so the next read asks only for what came after it', async () => {
    const { store, reads } = countingStore(service.context.store);
    const cache = new StreamCache(store);
    await service.context.store.append('held-1', [note('a')], 'no_stream');
    await cache.read('held-1');
    const result = await service.context.store.append('held-1', [note('b')], 0);
    cache.appended('held-1', 0, [
      { type: 'FirmRenamed', data: { firmId: 'note', name: 'b' }, recordedAt: result.recordedAt!, streamVersion: 1 },
    ]);
    expect(texts(cache.held('held-1')!)).toEqual(['a', 'b']);
    // Appended after a version it does not end at: not held (it would leave a gap).
    cache.appended('held-1', 5, [{ type: 'FirmRenamed', data: { firmId: 'note', name: 'z' }, recordedAt: new Date(), streamVersion: 6 }]);
    expect(texts(await cache.read('held-1'))).toEqual(['a', 'b']);
    expect(reads.at(-1)).toEqual({ stream: 'held-1', from: 2, answered: 0 });
  });
});

describe('folds taken up where they left off (real PostgreSQL)', () => {
  // docs/decisions/stream-cache.md: the last fold of each stream by each decider is kept.
  it('folds each event once per key while the stream only grows, and gives the same state as a fold from the start', async () => {
    const cache = new StreamCache(service.context.store);
    const seen: string[] = [];
    const key = {};
    const join = (state: string, fact: StoredFact) => {
      seen.push(textOf(fact));
      return state + textOf(fact);
    };
    await service.context.store.append('fold-1', [note('a'), note('b')], 'no_stream');
    expect(cache.fold('fold-1', await cache.read('fold-1'), key, '', join)).toBe('ab');
    await service.context.store.append('fold-1', [note('c')], 1);
    expect(cache.fold('fold-1', await cache.read('fold-1'), key, '', join)).toBe('abc');
    expect(cache.fold('fold-1', await cache.read('fold-1'), key, '', join)).toBe('abc');
    expect(seen).toEqual(['a', 'b', 'c']);
    // Another key folds from the start.
    expect(cache.fold('fold-1', await cache.read('fold-1'), {}, '>', join)).toBe('>abc');
  });

  it('folds from the start again once the stream has left the cache', async () => {
    const cache = new StreamCache(service.context.store, 3);
    const key = {};
    const count = (state: number) => state + 1;
    await service.context.store.append('fold-2', [note('a'), note('b')], 'no_stream');
    await service.context.store.append('fold-3', [note('a'), note('b')], 'no_stream');
    expect(cache.fold('fold-2', await cache.read('fold-2'), key, 0, count)).toBe(2);
    await cache.read('fold-3'); // fold-2 leaves
    expect(cache.fold('fold-2', await cache.read('fold-2'), key, 0, count)).toBe(2);
  });
});

/**
 * A counter that never passes its limit: decide refuses what would, and an addition of nothing changes nothing. Its
 * additions are real events of the contract (RecoveryCodeUsed's `remaining` carries the number added).
 */
type Added = Extract<DomainEvent, { type: 'RecoveryCodeUsed' }>;
const addition = (n: number): Added => ({ type: 'RecoveryCodeUsed', data: { userId: 'counter', remaining: n } });
const counter: Decider<{ n: number; limit: number }, number, Added> = {
  initialState: 0,
  decide: ({ n, limit }, total) => {
    if (total + n > limit) throw new Error(`${total} + ${n} passes ${limit}`);
    return n === 0 ? [] : [addition(n)];
  },
  evolve: (total, event) => (event.type === 'RecoveryCodeUsed' ? total + event.data.remaining : total),
};

describe('handleCommand decides on the events it holds, and on the store whenever that is not enough (real PostgreSQL)', () => {
  let elsewhere: EventStore;
  beforeAll(() => void (elsewhere = readingTheContract(createEventStore({}, service.context.pool, service.context.databaseUrl))));
  afterAll(async () => elsewhere?.close());
  const add = (store: EventStore, stream: string, n: number, limit = 100, options = {}) =>
    handleCommand(store, stream, counter, { n, limit }, metadata, options);
  const added = (stored: readonly RecordedEvent[]) =>
    stored.flatMap((event) => (event.type === 'RecoveryCodeUsed' ? [event.data.remaining] : []));

  // docs/decisions/stream-cache.md: a decision appended with its version may answer from what the cache holds.
  it('reads nothing for a second command when nothing else was appended, and answers with the stream as stored', async () => {
    const { store, reads } = countingStore(service.context.store);
    await add(store, 'counter-1', 1);
    const readsBefore = reads.length;
    const second = await add(store, 'counter-1', 2);
    expect(reads.length).toBe(readsBefore);
    expect(second.state).toBe(3);
    expect(second.history?.map((fact) => [fact.streamVersion, fact.data])).toEqual([
      [0, addition(1).data],
      [1, addition(2).data],
    ]);
    expect(added(await service.context.store.readStream('counter-1'))).toEqual([1, 2]);
  });

  // docs/decisions/stream-cache.md: staleness is caught by the store refusing the append; the command is decided again.
  // docs/architecture.md "A command": if another process appended in between, the command is decided again on the newer state.
  it('decides again on the store when another process appended meanwhile: nothing is lost', async () => {
    const { store } = countingStore(service.context.store);
    await add(store, 'counter-2', 1);
    await elsewhere.append('counter-2', [{ id: randomUUID(), ...addition(10), metadata }], 0);
    const handled = await add(store, 'counter-2', 2);
    expect(handled.state).toBe(13);
    expect(handled.version).toBe(2);
    expect(added(await service.context.store.readStream('counter-2'))).toEqual([1, 10, 2]);
  });

  it('refuses only on the stream as stored: a refusal or a no-op on what it holds is decided again', async () => {
    const { store } = countingStore(service.context.store);
    await add(store, 'counter-3', 5, 10);
    // Elsewhere the total falls back to 0; on what this process holds (5), adding 8 would pass 10.
    await elsewhere.append('counter-3', [{ id: randomUUID(), ...addition(-5), metadata }], 0);
    expect((await add(store, 'counter-3', 8, 10)).state).toBe(8);
    // And a real refusal is still given, with the decider's own words.
    await expect(add(store, 'counter-3', 5, 10)).rejects.toThrow('8 + 5 passes 10');
  });

  it('takes If-Match against the stream as stored, not as held', async () => {
    const { store } = countingStore(service.context.store);
    await add(store, 'counter-4', 1);
    await elsewhere.append('counter-4', [{ id: randomUUID(), ...addition(1), metadata }], 0);
    // The client saw version 1 (from the read side): held is at 0, the store at 1. It goes through.
    expect((await add(store, 'counter-4', 1, 100, { expectedVersion: { version: 1, from: 'client' } })).version).toBe(2);
    // A stale version is 412 whichever copy says so.
    await expect(add(store, 'counter-4', 1, 100, { expectedVersion: { version: 1, from: 'client' } })).rejects.toBeInstanceOf(
      PreconditionFailed,
    );
    // The same stale version from a process manager's own copy is a conflict, for it to decide again on what stands.
    await expect(add(store, 'counter-4', 1, 100, { expectedVersion: { version: 1, from: 'own copy' } })).rejects.toBeInstanceOf(
      ConcurrencyConflict,
    );
  });
});
