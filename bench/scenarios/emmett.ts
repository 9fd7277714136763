import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { dumbo } from '@event-driven-io/dumbo';
import { getPostgreSQLEventStore, readMessagesBatch } from '@event-driven-io/emmett-postgresql';
import { START, type Position } from '@pf/events';
import type { EventStore } from '@pf/infra';
import { round, unitsPerSecond } from '../lib/stats';

/**
 * Our PostgreSQL event store beside Emmett's (@event-driven-io/emmett-postgresql, a development dependency of
 * the benchmark only), each on a fresh database of the same server, with the same workload: 8 writers appending
 * batches of 1 and of 10 events to streams of their own with the expected version checked, reading one stream
 * of 1,000 events, and reading the whole log in pages of 1,000. Each figure is the median of three
 * repetitions, ours and Emmett's alternating; the headline is ours ÷ Emmett's (higher is better for us).
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

function ours(store: EventStore): Store {
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
    close: async () => undefined,
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface EmmettResult {
  readonly emmett: Record<string, { ours: number; emmett: number; ratio: number; ours_runs: number[]; emmett_runs: number[] }>;
  readonly emmett_min_ratio: number;
}

export async function measureAgainstEmmett(options: { ourStore: EventStore; emmettUrl: string; seconds: number }): Promise<EmmettResult> {
  const stores = { ours: ours(options.ourStore), emmett: emmett(options.emmettUrl) };
  try {
    // The same history in both: a 1,000-event stream to read, and the appends of a warm-up.
    const stream = `bench-read-${randomUUID()}`;
    for (const store of Object.values(stores)) {
      let version: bigint | null = null;
      for (let i = 0; i < 100; i++) version = await store.append(stream, 10, version);
      await appendRate(store, 8, 10, 1);
    }
    const measures: Record<string, (store: Store) => Promise<number>> = {
      append_events_per_s_batch1: (store) => appendRate(store, 8, 1, options.seconds),
      append_events_per_s_batch10: (store) => appendRate(store, 8, 10, options.seconds),
      stream_reads_per_s_1000_events: (store) => streamReadRate(store, stream, Math.max(1, options.seconds / 2)),
      log_read_events_per_s: (store) => logReadRate(store),
    };
    const result: EmmettResult['emmett'] = {};
    for (const [key, measure] of Object.entries(measures)) {
      const runs = { ours: [] as number[], emmett: [] as number[] };
      for (let repetition = 0; repetition < 3; repetition++) {
        // Alternating, so a change of the machine's load falls on both.
        const order = repetition % 2 === 0 ? (['ours', 'emmett'] as const) : (['emmett', 'ours'] as const);
        for (const name of order) runs[name].push(await measure(stores[name]));
      }
      const [o, e] = [median(runs.ours), median(runs.emmett)];
      result[key] = {
        ours: round(o, 0),
        emmett: round(e, 0),
        ratio: round(o / e, 3),
        ours_runs: runs.ours.map((v) => round(v, 0)),
        emmett_runs: runs.emmett.map((v) => round(v, 0)),
      };
    }
    return { emmett: result, emmett_min_ratio: Math.min(...Object.values(result).map((r) => r.ratio)) };
  } finally {
    await stores.emmett.close();
    // Emmett's driver (dumbo) sets node-postgres's type parsers for the whole process (int8 as BigInt, its own
    // JSON reader), so our store's reads in this comparison ran with them too; the product's are put back.
    pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
    pg.types.setTypeParser(pg.types.builtins.JSON, JSON.parse);
    pg.types.setTypeParser(pg.types.builtins.JSONB, JSON.parse);
  }
}
