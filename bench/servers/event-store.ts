import { randomUUID } from 'node:crypto';
import { dumbo } from '@event-driven-io/dumbo';
import { getPostgreSQLEventStore, readMessagesBatch } from '@event-driven-io/emmett-postgresql';
import { commandMigrations } from '@pf/command-service';
import { START, type Position } from '@pf/events';
import { createLogger, openServiceContext, parseConfig } from '@pf/infra';
import { queryMigrations } from '@pf/query-service';
import { unitsPerSecond } from '../lib/stats';

/**
 * Child process: one event store of the Emmett comparison (bench/scenarios/emmett.ts), ours or Emmett's
 * (`STORE`), on `DATABASE_URL`. Each store has a process of its own because Emmett's driver sets node-postgres's
 * type parsers for the whole process (int8 as BigInt, JSON read with a reviver), which would slow our reads too.
 * Answers the parent's measures over IPC: `{ id, measure, seconds }` → `{ id, value }` or `{ id, error }`.
 */

interface Store {
  append(stream: string, batch: number, expected: bigint | null): Promise<bigint>;
  readStream(stream: string): Promise<number>;
  /** Reads the whole log in pages; returns how many events it read. */
  readAll(): Promise<number>;
  close(): Promise<void>;
}

const payload = (i: number) => ({
  conversationId: 1,
  messageId: i + 1,
  fromAgentId: 1,
  toAgentId: 2,
  content: 'Could we look at a two-year fix at 4.2%?',
  isAutomated: true,
});

async function ours(url: string): Promise<Store> {
  const context = await openServiceContext(parseConfig({ DATABASE_URL: url, AUTOMATION: 'off' }), createLogger('silent', 'bench'), url, [
    ...commandMigrations,
    ...queryMigrations,
  ]);
  const { store } = context;
  return {
    async append(stream, batch, expected) {
      const events = Array.from({ length: batch }, (_, i) => ({
        id: randomUUID(),
        type: 'MessageSent',
        data: payload(i),
        metadata: { actor: { kind: 'agent' as const, agentId: 1 }, correlationId: randomUUID(), causationId: null },
      }));
      const result = await store.append(stream, events, expected === null ? 'no_stream' : Number(expected));
      return BigInt(result.nextExpectedVersion);
    },
    async readStream(stream) {
      return (await store.readStream(stream)).length;
    },
    async readAll() {
      let position: Position = START;
      let read = 0;
      for (;;) {
        const page = await store.readAll(position, 1000);
        if (page.length === 0) return read;
        read += page.length;
        position = page[page.length - 1]!.position;
      }
    },
    close: () => context.close(),
  };
}

function emmett(connectionString: string): Store {
  const store = getPostgreSQLEventStore(connectionString);
  const pool = dumbo({ connectionString });
  return {
    async append(stream, batch, expected) {
      const events = Array.from({ length: batch }, (_, i) => ({
        type: 'MessageSent',
        data: payload(i),
        metadata: { correlationId: randomUUID(), causationId: null, eventId: randomUUID() },
      }));
      const result = await store.appendToStream(
        stream,
        events,
        expected === null ? { expectedStreamVersion: 'STREAM_DOES_NOT_EXIST' } : { expectedStreamVersion: expected },
      );
      return result.nextExpectedStreamVersion;
    },
    async readStream(stream) {
      return (await store.readStream(stream)).events.length;
    },
    async readAll() {
      let after = 0n;
      let read = 0;
      for (;;) {
        const page = await readMessagesBatch(pool.execute, { after, batchSize: 1000 });
        read += page.messages.length;
        if (page.messages.length === 0 || !page.areMessagesLeft) return read;
        after = page.currentGlobalPosition;
      }
    },
    async close() {
      await store.close();
      await pool.close();
    },
  };
}

async function appendRate(store: Store, writers: number, batch: number, seconds: number): Promise<number> {
  const versions: (bigint | null)[] = Array.from({ length: writers }, () => null);
  const streams = Array.from({ length: writers }, () => `bench-${randomUUID()}`);
  return unitsPerSecond(writers, seconds, async (writer) => {
    versions[writer] = await store.append(streams[writer]!, batch, versions[writer]!);
    return batch;
  });
}

/** Reads of one 1,000-event stream per second, over `seconds`. */
async function streamReadRate(store: Store, stream: string, seconds: number): Promise<number> {
  let reads = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    if ((await store.readStream(stream)) !== 1000) throw new Error('The stream should hold 1,000 events');
    reads += 1;
  }
  return reads / ((performance.now() - started) / 1000);
}

async function logReadRate(store: Store): Promise<number> {
  const started = performance.now();
  const read = await store.readAll();
  return read / ((performance.now() - started) / 1000);
}

const url = process.env.DATABASE_URL!;
const store = process.env.STORE === 'emmett' ? emmett(url) : await ours(url);
// The same history in both: a 1,000-event stream to read, and the appends of a warm-up.
const stream = `bench-read-${randomUUID()}`;
let version: bigint | null = null;
for (let i = 0; i < 100; i++) version = await store.append(stream, 10, version);
await appendRate(store, 8, 10, 1);

const measures: Record<string, (seconds: number) => Promise<number>> = {
  append_events_per_s_batch1: (seconds) => appendRate(store, 8, 1, seconds),
  append_events_per_s_batch10: (seconds) => appendRate(store, 8, 10, seconds),
  stream_reads_per_s_1000_events: (seconds) => streamReadRate(store, stream, Math.max(1, seconds / 2)),
  log_read_events_per_s: () => logReadRate(store),
};

// The benchmark that started it has gone (it failed part way): nothing of it is left running.
process.once('disconnect', () => process.exit(1));
process.on('message', (message: 'close' | { id: number; measure: string; seconds: number }) => {
  if (message === 'close') {
    void store.close().finally(() => process.exit(0));
    return;
  }
  measures[message.measure]!(message.seconds).then(
    (value) => process.send!({ id: message.id, value }),
    (error: Error) => process.send!({ id: message.id, error: error.stack ?? error.message }),
  );
});
process.send!({ ready: Object.keys(measures) });
