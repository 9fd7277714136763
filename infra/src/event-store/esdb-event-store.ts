import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START as ESDB_START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  type AllStreamResolvedEvent,
} from '@eventstore/db-client';
import { START, comparePositions, type Position } from '@pf/events';
import { ConcurrencyConflict, Invalid } from '../errors';
import { linkEvents } from './hash-chain';
import { toEventData, toRecorded } from './esdb-mapping';
import { batchedSubscription } from './esdb-subscription';
import type {
  AppendResult,
  BatchHandler,
  EventStore,
  ExpectedVersion,
  NewEvent,
  StoredEvent,
  StreamHeadRecord,
  SubscribeOptions,
  Subscription,
} from './port';

const describe = (version: number | bigint | string) => (version === 'no_stream' ? 'no stream' : String(version));

/** A page of raw $all records: system events are skipped after reading, so a page is larger than asked. */
const PAGE = 512;

/**
 * The event store in EventStoreDB / KurrentDB (DESIGN.md "The event store"). The server owns the
 * global order: $all is one log, and an event's position is its (commit, prepare) pair in it, which
 * is exactly the port's Position, so checkpoints taken against it mean what they mean for PostgreSQL.
 */
export class EsdbEventStore implements EventStore<StoredEvent> {
  private readonly client: EventStoreDBClient;

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async append(stream: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    if (events.length === 0) throw new Invalid('An append needs at least one event');
    // "any" still chains to the head it read: if another writer moves the head meanwhile, read it again.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.appendChained(stream, events, expected);
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        if (expected === 'any' && attempt < 5) continue;
        throw new ConcurrencyConflict(stream, describe(expected), describe(error.actualVersion));
      }
    }
  }

  /**
   * Hashes the events onto the stream's head (hash-chain.ts, as the PostgreSQL adapter does) and appends them
   * expecting exactly that head, so the chain cannot fork. A retried append (its ids already at the end of
   * the stream) answers as the first one did and stores nothing twice.
   */
  private async appendChained(stream: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    const tail = await this.readTail(stream, events.length);
    const last = tail[tail.length - 1];
    const retried = tail.length === events.length && tail.every((event, i) => event.id === events[i]!.id);
    if (retried && last) return { nextExpectedVersion: last.streamVersion, position: last.position };
    const current = last?.streamVersion ?? -1;
    if (expected !== 'any' && (expected === 'no_stream' ? current !== -1 : current !== expected)) {
      throw new ConcurrencyConflict(stream, describe(expected), current === -1 ? 'no stream' : String(current));
    }
    const recordedAt = new Date();
    const linked = linkEvents(
      last?.hash ?? null,
      events.map((event, index) => ({ ...event, stream, streamVersion: current + 1 + index, recordedAt })),
    );
    const result = await this.client.appendToStream(
      stream,
      linked.map((event) =>
        toEventData(event, { recordedAt: recordedAt.toISOString(), hash: event.hash, previousHash: event.previousHash }),
      ),
      { expectedRevision: current === -1 ? NO_STREAM : BigInt(current) },
    );
    const revision = result.nextExpectedRevision;
    // The append answer's position is the commit record's; readers compare against the last event's own.
    const written = await this.readStream(stream, Number(revision));
    const event = written[0];
    if (!event) throw new Error(`EventStoreDB did not return ${stream}@${revision} after appending it`);
    return { nextExpectedVersion: Number(revision), position: event.position };
  }

  /** The last `count` events of a stream, in stream order (none when it does not exist). */
  private async readTail(stream: string, count: number): Promise<StoredEvent[]> {
    const events: StoredEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(stream, { fromRevision: END, direction: BACKWARDS, maxCount: count })) {
        const event = toRecorded(resolved);
        if (event) events.unshift(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readStream(stream: string, fromVersion = 0): Promise<StoredEvent[]> {
    const events: StoredEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(stream, {
        fromRevision: BigInt(fromVersion),
        direction: FORWARDS,
      })) {
        const event = toRecorded(resolved);
        if (event) events.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  /** EventStoreDB keeps no head apart from the stream itself: its last event is its head. */
  async streamHead(stream: string): Promise<StreamHeadRecord | null> {
    const [last] = await this.readTail(stream, 1);
    return last ? { version: last.streamVersion, hash: last.hash ?? null } : null;
  }

  /** EventStoreDB answers one stream at a time: each stream's last event, read side by side. */
  async streamsWithEvents(streams: readonly string[]): Promise<Set<string>> {
    const heads = await Promise.all(streams.map(async (stream) => ((await this.streamHead(stream)) ? [stream] : [])));
    return new Set(heads.flat());
  }

  async readAll(after: Position, limit: number): Promise<StoredEvent[]> {
    const events: StoredEvent[] = [];
    // Reads from a position include it; each page starts at the previous page's last record.
    let cursor = after;
    for (;;) {
      const page = await this.readPage(cursor, FORWARDS);
      let moved = false;
      for (const resolved of page) {
        const position = resolved.event?.position;
        if (!position || comparePositions(position, cursor) <= 0) continue;
        cursor = position;
        moved = true;
        const event = toRecorded(resolved);
        if (event) events.push(event);
        if (events.length === limit) return events;
      }
      if (page.length < PAGE || !moved) return events;
    }
  }

  async headPosition(): Promise<Position> {
    let cursor: Position | null = null;
    for (;;) {
      const page = await this.readPage(cursor ?? END, BACKWARDS);
      let moved = false;
      for (const resolved of page) {
        const position = resolved.event?.position;
        if (!position || (cursor && comparePositions(position, cursor) >= 0)) continue;
        cursor = position;
        moved = true;
        const event = toRecorded(resolved);
        if (event) return event.position;
      }
      if (page.length < PAGE || !moved) return START;
    }
  }

  private async readPage(from: Position | typeof END, direction: typeof FORWARDS | typeof BACKWARDS) {
    const page: AllStreamResolvedEvent[] = [];
    const fromPosition = from !== END && comparePositions(from, START) === 0 ? ESDB_START : from;
    for await (const resolved of this.client.readAll({ fromPosition, direction, maxCount: PAGE })) {
      page.push(resolved);
    }
    return page;
  }

  subscribe(after: Position, handler: BatchHandler<StoredEvent>, options: SubscribeOptions = {}): Subscription {
    return batchedSubscription<AllStreamResolvedEvent>({
      after,
      handler,
      options,
      head: () => this.headPosition(),
      map: toRecorded,
      open: (from) => {
        const stream = this.client.subscribeToAll({
          fromPosition: comparePositions(from, START) === 0 ? ESDB_START : from,
          filter: excludeSystemEvents(),
        });
        return { stream, unsubscribe: () => stream.unsubscribe() };
      },
    });
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}
