import { readStoredEvent } from '@pf/events';
import type { EventStore, RecordedEvent, StoredEvent } from './port';

/** Each stored event's reading, so the followers sharing one read of the log's tail read each event once. */
const readings = new WeakMap<StoredEvent, RecordedEvent>();

/**
 * A stored event as the contract's event (docs/architecture.md, "Stored events"): upgraded and validated by the
 * contract's one reader, which refuses an event that is not the contract's with an error naming it and its field.
 * Kept for the stored event: the followers that share one read of the log's tail (PostgresEventStore.readAll)
 * validate each event once between them.
 */
export function recordedEventOf(stored: StoredEvent): RecordedEvent {
  const known = readings.get(stored);
  if (known) return known;
  const recorded: RecordedEvent = {
    id: stored.id,
    stream: stored.stream,
    streamVersion: stored.streamVersion,
    position: stored.position,
    recordedAt: stored.recordedAt,
    metadata: stored.metadata,
    hash: stored.hash,
    previousHash: stored.previousHash,
    ...readStoredEvent(stored),
  };
  readings.set(stored, recorded);
  return recorded;
}

const recordedEventsOf = (events: readonly StoredEvent[]): RecordedEvent[] => events.map(recordedEventOf);

/**
 * The store as the services read it: every read answers the contract's events, read where they leave the store and
 * nowhere else. An event the contract refuses fails the read (or the subscription's batch, through its onError);
 * a reader that must go on past one reads the stored events with `readStoredEventOrNull` instead.
 */
export function readingTheContract(store: EventStore<StoredEvent>): EventStore {
  return {
    append: (stream, events, expected) => store.append(stream, events, expected),
    readStream: async (stream, fromVersion) => recordedEventsOf(await store.readStream(stream, fromVersion)),
    streamHead: (stream) => store.streamHead(stream),
    streamsWithEvents: (streams) => store.streamsWithEvents(streams),
    readAll: async (after, limit, options) => recordedEventsOf(await store.readAll(after, limit, options)),
    subscribe: (after, handler, options) => store.subscribe(after, (batch) => handler(recordedEventsOf(batch)), options),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
    ...(store.wasWrittenAt ? { wasWrittenAt: (position) => store.wasWrittenAt!(position) } : {}),
    ...(store.readTypes
      ? {
          readTypes: async (after, types, limit) => {
            const { events, through } = await store.readTypes!(after, types, limit);
            return { events: recordedEventsOf(events), through };
          },
        }
      : {}),
  };
}
