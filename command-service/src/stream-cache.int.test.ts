import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventStore, createLogger, openServiceContext, parseConfig, type EventStore, type OpenedContext, type RecordedEvent } from '@pf/infra';
import { createTestDatabase } from '@pf/infra/testing';
import { commandMigrations } from './index';
import { StreamCache } from './stream-cache';

const metadata = { actor: { kind: 'system' as const, name: 'test' }, correlationId: randomUUID(), causationId: null };
const note = (text: string) => ({ id: randomUUID(), type: 'Noted', data: { text }, metadata });

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

const texts = (events: readonly RecordedEvent[]) => events.map((event) => (event.data as { text: string }).text);

describe('the command side reads each stream once, then only what is new (real PostgreSQL)', () => {
  let context: OpenedContext;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    context = await openServiceContext(parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' }), createLogger('silent'), database.url, commandMigrations);
  });
  afterAll(async () => {
    await context?.close();
    await drop?.();
  });

  it('answers the whole stream every time, reading from the store only the events after those it holds', async () => {
    const { store, reads } = countingStore(context.store);
    const cache = new StreamCache(store);
    await context.store.append('note-1', [note('a'), note('b')], 'no_stream');

    expect(texts(await cache.read('note-1'))).toEqual(['a', 'b']);
    expect(texts(await cache.read('note-1'))).toEqual(['a', 'b']);
    await context.store.append('note-1', [note('c')], 1);
    expect(texts(await cache.read('note-1'))).toEqual(['a', 'b', 'c']);
    expect(reads).toEqual([
      { stream: 'note-1', from: 0, answered: 2 },
      { stream: 'note-1', from: 2, answered: 0 },
      { stream: 'note-1', from: 2, answered: 1 },
    ]);
  });

  it('sees what another process appended (its own store on the same database) before the next decision', async () => {
    const cache = new StreamCache(context.store);
    await context.store.append('note-2', [note('mine')], 'no_stream');
    expect(texts(await cache.read('note-2'))).toEqual(['mine']);

    const elsewhere = createEventStore({}, context.pool, context.databaseUrl);
    await elsewhere.append('note-2', [note('theirs')], 0);
    expect(texts(await cache.read('note-2'))).toEqual(['mine', 'theirs']);
    await elsewhere.close();
  });

  it('keeps at most its bound of events, letting the least recently used streams go first', async () => {
    const { store, reads } = countingStore(context.store);
    const cache = new StreamCache(store, 5);
    for (const name of ['lru-a', 'lru-b', 'lru-c']) await context.store.append(name, [note(`${name} 1`), note(`${name} 2`)], 'no_stream');

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
    const cache = new StreamCache(context.store, 2);
    await context.store.append('long', [note('1'), note('2'), note('3')], 'no_stream');
    expect(texts(await cache.read('long'))).toEqual(['1', '2', '3']);
    expect(cache.size()).toEqual({ streams: 0, events: 0 });
  });
});
