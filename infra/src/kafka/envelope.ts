import { formatPosition, parsePosition, recordedEventEnvelope, type RecordedEventEnvelope } from '@pf/events';
import type { StoredEvent } from '../event-store/port';

/** The JSON envelope of events/src/envelope.ts: what Kafka carries and analytics jobs read. */
export function toEnvelope(event: StoredEvent): RecordedEventEnvelope {
  return {
    id: event.id,
    type: event.type,
    stream: event.stream,
    streamVersion: event.streamVersion,
    position: formatPosition(event.position),
    recordedAt: event.recordedAt.toISOString(),
    data: event.data,
    metadata: event.metadata,
  };
}

export function fromEnvelope(envelope: RecordedEventEnvelope): StoredEvent {
  return {
    id: envelope.id,
    type: envelope.type,
    stream: envelope.stream,
    streamVersion: envelope.streamVersion,
    position: parsePosition(envelope.position),
    recordedAt: new Date(envelope.recordedAt),
    data: envelope.data,
    metadata: envelope.metadata,
  };
}

export interface EventMessage {
  readonly key: string;
  readonly value: string;
  readonly headers: { readonly 'event-id': string; readonly 'event-type': string };
}

/**
 * Keyed by stream: one stream's events land in one partition, so Kafka keeps them in stream order. `redacted`: the
 * fields emptied of a deleted person's data (the event feed's envelope, docs/event-feed.md), when any were.
 */
export function toMessage(event: StoredEvent, redacted: readonly string[] = []): EventMessage {
  const envelope = toEnvelope(event);
  return {
    key: event.stream,
    value: JSON.stringify(redacted.length === 0 ? envelope : { ...envelope, redacted }),
    headers: { 'event-id': event.id, 'event-type': event.type },
  };
}

/** Parses a message value; throws with the reason when it is not an event envelope. */
export function parseMessage(value: Buffer | string | null): StoredEvent {
  if (value === null) throw new Error('The message has no value');
  const parsed = recordedEventEnvelope.safeParse(JSON.parse(value.toString()));
  if (!parsed.success) throw new Error(`Not an event envelope: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return fromEnvelope(parsed.data);
}
