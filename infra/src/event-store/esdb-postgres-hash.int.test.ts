import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BACKWARDS, END } from '@eventstore/db-client';
import { streams, type EventMetadata } from '@pf/events';
import { createPool } from '../db/pool';
import { migrate } from '../db/migrate';
import { createTestDatabase, type TestDatabase } from '../testing/database';
import { EsdbEventStore } from './esdb-event-store';
import { verifyStream } from './hash-chain';
import { PostgresEventStore } from './postgres-event-store';
import { eventStoreMigrations } from './postgres-schema';
import type { NewEvent, StoredEvent } from './port';

/**
 * The EventStoreDB adapter computes the same hashes (docs/decisions/hash-chain.md). No EventStoreDB server runs here, so the
 * adapter's own append and read paths (appendChained, toEventData, toRecorded) run against an in-memory stand-in
 * for the client that keeps what the server keeps (the JSON it was sent, a revision, a log position, its own
 * `created` time) and answers reads the way the client does. The PostgreSQL adapter runs for real. The same
 * events, appended at the same instant, must come back from both with the same hashes and links.
 */

interface StoredEsdb {
  readonly event: Record<string, unknown>;
}

/** What EsdbEventStore asks of EventStoreDBClient on append and stream reads, and nothing more. */
class FakeEsdbClient {
  private readonly streams = new Map<string, StoredEsdb[]>();
  private commit = 1000n;

  async appendToStream(
    stream: string,
    events: { id: string; type: string; data: unknown; metadata: unknown }[],
    options: { expectedRevision: unknown },
  ) {
    const stored = this.streams.get(stream) ?? [];
    const expected = typeof options.expectedRevision === 'bigint' ? Number(options.expectedRevision) : -1;
    if (expected !== stored.length - 1) throw new Error(`fake ESDB: expected revision ${expected}, stream at ${stored.length - 1}`);
    for (const event of events) {
      this.commit += 10n;
      stored.push({
        event: {
          streamId: stream,
          id: event.id,
          revision: BigInt(stored.length),
          type: event.type,
          // The server keeps bytes; the client parses them back: a JSON round trip, as on the wire.
          data: JSON.parse(JSON.stringify(event.data)),
          metadata: JSON.parse(JSON.stringify(event.metadata)),
          isJson: true,
          // The server's own clock, later than the client's: the adapter must report the time it hashed.
          created: new Date(Date.now() + 37),
          position: { commit: this.commit, prepare: this.commit },
        },
      });
    }
    this.streams.set(stream, stored);
    return { nextExpectedRevision: BigInt(stored.length - 1), success: true };
  }

  async *readStream(stream: string, options: { fromRevision: bigint | typeof END; direction: unknown; maxCount?: number }) {
    const stored = this.streams.get(stream) ?? [];
    const ordered =
      options.direction === BACKWARDS
        ? [...stored].reverse()
        : stored.slice(options.fromRevision === END ? stored.length : Number(options.fromRevision));
    yield* ordered.slice(0, options.maxCount ?? ordered.length);
  }
}

const metadata: EventMetadata = {
  actor: { kind: 'user', userId: 'u-1', sessionId: 's-9' },
  correlationId: 'corr-1',
  causationId: 'cause-1',
};

/** Data a canonical encoding must get right: unsorted keys, nesting, decimals, pounds, quotes, newlines, nulls. */
const makeBatches = (): NewEvent[][] => [
  [
    {
      id: randomUUID(),
      type: 'OfferMade',
      data: { terms: { termYears: 25, interestRate: 4.85, loanAmount: 200_000, arrangementFee: 999 }, round: 1, offerId: 'o1' },
      metadata,
    },
    {
      id: randomUUID(),
      type: 'MessageSent',
      data: { content: 'We offer £200,000 at "4.85%"\nover 25 years — é', toAgentId: null, isAutomated: false },
      metadata,
    },
  ],
  [
    {
      id: randomUUID(),
      type: 'AgentUpdated',
      data: { criteria: { z: [3, 1.5, { b: true, a: null }], a: '' }, name: 'Northgate' },
      metadata: { ...metadata, causationId: null },
    },
  ],
];

describe('the EventStoreDB and PostgreSQL adapters give the same event the same hash', () => {
  let database: TestDatabase;
  let pool: ReturnType<typeof createPool>;
  let postgres: PostgresEventStore;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool(database.url, 4);
    await migrate(pool, eventStoreMigrations);
    postgres = new PostgresEventStore(pool, database.url);
  });
  afterEach(() => vi.useRealTimers());
  afterAll(async () => {
    await postgres?.close();
    await pool?.end();
    await database?.drop();
  });

  function esdbStore(): EsdbEventStore {
    const store = new EsdbEventStore('esdb://127.0.0.1:1?tls=false');
    (store as unknown as { client: FakeEsdbClient }).client = new FakeEsdbClient();
    return store;
  }

  /** Appends each batch to the ESDB adapter with the clock at the time PostgreSQL recorded that batch. */
  async function appendToEsdb(store: EsdbEventStore, stream: string, batches: NewEvent[][], times: Date[]): Promise<StoredEvent[]> {
    vi.useFakeTimers({ toFake: ['Date'] });
    for (const [index, batch] of batches.entries()) {
      vi.setSystemTime(times[index]!);
      await store.append(stream, batch, 'any');
    }
    vi.useRealTimers();
    return store.readStream(stream);
  }

  it('hashes, links and times every event identically, and both chains verify', async () => {
    const stream = streams.deal(randomUUID());
    const batches = makeBatches();
    for (const batch of batches) await postgres.append(stream, batch, 'any');
    const fromPostgres = await postgres.readStream(stream);
    const fromEsdb = await appendToEsdb(esdbStore(), stream, batches, [fromPostgres[0]!.recordedAt, fromPostgres[2]!.recordedAt]);

    expect(fromPostgres.map((e) => e.hash)).toEqual(fromPostgres.map(() => expect.stringMatching(/^[0-9a-f]{64}$/) as unknown));
    const chain = (events: StoredEvent[]) =>
      events.map((e) => ({
        id: e.id,
        version: e.streamVersion,
        at: e.recordedAt.toISOString(),
        hash: e.hash,
        previousHash: e.previousHash,
      }));
    expect(chain(fromEsdb)).toEqual(chain(fromPostgres));
    // The ESDB adapter hands back the event's own metadata, without its chain stamp, as PostgreSQL does.
    expect(fromEsdb.map((e) => e.metadata)).toEqual(fromPostgres.map((e) => e.metadata));
    const links = (events: StoredEvent[]) => events.map((e) => ({ ...e, hash: e.hash ?? null, previousHash: e.previousHash ?? null }));
    expect(verifyStream(stream, links(fromEsdb), null).intact).toBe(true);
    expect(verifyStream(stream, links(fromPostgres), await postgres.streamHead(stream)).intact).toBe(true);
  });

  it('gives a different hash when the time hashed differs by one millisecond (the comparison can fail)', async () => {
    const stream = streams.deal(randomUUID());
    const batches = makeBatches();
    for (const batch of batches) await postgres.append(stream, batch, 'any');
    const fromPostgres = await postgres.readStream(stream);
    const later = new Date(fromPostgres[0]!.recordedAt.getTime() + 1);
    const fromEsdb = await appendToEsdb(esdbStore(), stream, batches, [later, fromPostgres[2]!.recordedAt]);
    expect(fromEsdb[0]!.hash).not.toBe(fromPostgres[0]!.hash);
    // And the difference runs down the chain: every later link differs too.
    expect(fromEsdb[2]!.hash).not.toBe(fromPostgres[2]!.hash);
  });
});
