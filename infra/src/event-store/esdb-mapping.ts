import {
  ANY,
  NO_STREAM,
  jsonEvent,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type { EventMetadata } from '@pf/events';
import type { ExpectedVersion, NewEvent, StoredEvent } from './port';

/** The port's expected version in EventStoreDB's terms: revisions are the same 0-based numbers. */
export function toExpectedRevision(expected: ExpectedVersion): AppendExpectedRevision {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  return BigInt(expected);
}

/**
 * The hash chain's fields ride in the metadata under this key: EventStoreDB stamps its own `created` time
 * only after the client has hashed, so the adapter records the time it hashed here and reports that one.
 */
export const CHAIN_KEY = '$chain';

export interface ChainStamp {
  readonly recordedAt: string;
  readonly hash: string;
  readonly previousHash: string | null;
}

/** An event's data is a JSON object (every event of the contract's is). */
const isJsonObject = (data: unknown): data is Record<string, unknown> => typeof data === 'object' && data !== null && !Array.isArray(data);

export function toEventData(event: NewEvent, chain?: ChainStamp) {
  const metadata = chain ? { ...event.metadata, [CHAIN_KEY]: chain } : event.metadata;
  if (!isJsonObject(event.data)) throw new Error(`A ${event.type} event's data must be a JSON object`);
  return jsonEvent({
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: metadata,
  });
}

/** Splits stored metadata into the event's own metadata and its chain stamp (absent on unchained events). */
export function splitChain(stored: Record<string, unknown> | null): { metadata: EventMetadata; chain: ChainStamp | null } {
  if (!stored || !(CHAIN_KEY in stored)) return { metadata: stored as unknown as EventMetadata, chain: null };
  const { [CHAIN_KEY]: chain, ...metadata } = stored;
  return { metadata: metadata as unknown as EventMetadata, chain: chain as ChainStamp };
}

/** System events ($metadata, $>, $statsCollected, ...) are EventStoreDB's own, never ours. */
export const isSystemType = (type: string) => type.startsWith('$');

type Resolved = ResolvedEvent | AllStreamResolvedEvent;

/** A stored event in the port's shape, or null for what the port never shows: system and link events. */
export function toRecorded(resolved: Resolved): StoredEvent | null {
  const event = resolved.event;
  if (!event || resolved.link || isSystemType(event.type)) return null;
  // Servers before 22.6 leave out the log position on stream reads; skipping would lose events.
  if (!event.position) throw new Error('EventStoreDB 22.6 or later is needed: stream reads carry no log position');
  const stored = (event.isJson || !event.metadata ? event.metadata : decodeJson(event.metadata as Uint8Array)) as Record<
    string,
    unknown
  > | null;
  const { metadata, chain } = splitChain(stored);
  return {
    id: event.id,
    type: event.type,
    stream: event.streamId,
    streamVersion: Number(event.revision),
    position: { commit: event.position.commit, prepare: event.position.prepare },
    recordedAt: chain ? new Date(chain.recordedAt) : event.created,
    data: event.isJson ? event.data : decodeJson(event.data),
    metadata,
    hash: chain?.hash ?? null,
    previousHash: chain?.previousHash ?? null,
  };
}

function decodeJson(bytes: Uint8Array): unknown {
  return bytes.length === 0 ? null : JSON.parse(Buffer.from(bytes).toString('utf8'));
}
