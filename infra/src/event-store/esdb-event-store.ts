import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START as ESDB_START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  type AllStreamResolvedEvent,
} from '@eventstore/db-client';
import { START, comparePositions, type Position } from '@pf/events';
import { ConcurrencyConflict, Invalid } from '../errors';
import { toEventData, toExpectedRevision, toRecorded } from './esdb-mapping';
import { batchedSubscription } from './esdb-subscription';
import type {
  AppendResult,
  BatchHandler,
  EventStore,
  ExpectedVersion,
  NewEvent,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from './port';

const describe = (version: ExpectedVersion | bigint | string) =>
  version === 'no_stream' ? 'no stream' : String(version);

/** A page of raw $all records: system events are skipped after reading, so a page is larger than asked. */
const PAGE = 512;

/**
 * The event store in EventStoreDB / KurrentDB (DESIGN.md "The event store"). The server owns the
 * global order: $all is one log, and an event's position is its (commit, prepare) pair in it, which
 * is exactly the port's Position, so checkpoints taken against it mean what they mean for PostgreSQL.
 */
export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async append(stream: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    if (events.length === 0) throw new Invalid('An append needs at least one event');
    let revision: bigint;
    try {
      // Event ids go through unchanged: the server answers a retried append (same ids, same
      // expected version) with success and stores nothing twice.
      const result = await this.client.appendToStream(stream, events.map(toEventData), {
        expectedRevision: toExpectedRevision(expected),
      });
      revision = result.nextExpectedRevision;
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        throw new ConcurrencyConflict(stream, describe(expected), describe(error.actualVersion));
      }
      throw error;
    }
    // The append answer's position is the commit record's, and a retried append may carry none;
    // readers compare against the last event's own position, so read that one back.
    const last = await this.readStream(stream, Number(revision));
    const event = last[0];
    if (!event) throw new Error(`EventStoreDB did not return ${stream}@${revision} after appending it`);
    return { nextExpectedVersion: Number(revision), position: event.position };
  }

  async readStream(stream: string, fromVersion = 0): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
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

  async readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
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

  subscribe(after: Position, handler: BatchHandler, options: SubscribeOptions = {}): Subscription {
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
