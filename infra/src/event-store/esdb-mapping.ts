import {
  ANY,
  NO_STREAM,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type { EventMetadata } from '@pf/events';
import type { ExpectedVersion, NewEvent, RecordedEvent } from './port';

/** The port's expected version in EventStoreDB's terms: revisions are the same 0-based numbers. */
export function toExpectedRevision(expected: ExpectedVersion): AppendExpectedRevision {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  return BigInt(expected);
}

export function toEventData(event: NewEvent) {
  return jsonEvent({
    id: event.id,
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata: event.metadata as unknown as Record<string, unknown>,
  });
}

/** System events ($metadata, $>, $statsCollected, ...) are EventStoreDB's own, never ours. */
export const isSystemType = (type: string) => type.startsWith('$');

type Resolved = ResolvedEvent | AllStreamResolvedEvent;

/** A stored event in the port's shape, or null for what the port never shows: system and link events. */
export function toRecorded(resolved: Resolved): RecordedEvent | null {
  const event = resolved.event;
  if (!event || resolved.link || isSystemType(event.type)) return null;
  // Servers before 22.6 leave out the log position on stream reads; skipping would lose events.
  if (!event.position) throw new Error('EventStoreDB 22.6 or later is needed: stream reads carry no log position');
  return {
    id: event.id,
    type: event.type,
    stream: event.streamId,
    streamVersion: Number(event.revision),
    position: { commit: event.position.commit, prepare: event.position.prepare },
    recordedAt: event.created,
    data: event.isJson ? event.data : decodeJson(event.data as Uint8Array),
    metadata: (event.isJson || !event.metadata ? event.metadata : decodeJson(event.metadata as Uint8Array)) as EventMetadata,
  };
}

function decodeJson(bytes: Uint8Array): unknown {
  return bytes.length === 0 ? null : JSON.parse(Buffer.from(bytes).toString('utf8'));
}
