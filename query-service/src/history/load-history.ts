import { comparePositions, readStoredEvent, readStoredEventOrNull, streams, type DomainEvent, type EventOf } from '@pf/events';
import type { EventStore, StoredEvent } from '@pf/infra';

/**
 * A stored event with its domain meaning (null for an event the contract refuses: a type this version does not know,
 * or data altered, which History shows as stored; docs/architecture.md, "Stored events").
 */
export interface HistoryRecord {
  readonly recorded: StoredEvent;
  readonly event: DomainEvent | null;
  /** Set when `recorded` is an erased copy (erasure.ts): the content digest of the event as stored, which its hash covers. */
  readonly storedDigest?: string;
}

export interface LoadedHistory {
  readonly conversationId: number;
  readonly started: EventOf<'ConversationStarted'>['data'];
  /** Every event of the conversation and of what it depends on, in global order. */
  readonly records: readonly HistoryRecord[];
  /** The streams read, for the verifier. */
  readonly streams: readonly string[];
  /** The last version read of each stream (-1 for none), before the agents' later events were left out: what a cached copy is checked against. */
  readonly versions: ReadonlyMap<string, number>;
}

function toRecord(recorded: StoredEvent): HistoryRecord {
  return { recorded, event: readStoredEventOrNull(recorded) };
}

/** The conversation's start, which names the streams its history reads: refused by name if the contract refuses it. */
function startOf(own: readonly StoredEvent[]): EventOf<'ConversationStarted'>['data'] | null {
  const stored = own.find((event) => event.type === 'ConversationStarted');
  const start = stored ? readStoredEvent(stored) : null;
  return start?.type === 'ConversationStarted' ? start.data : null;
}

/**
 * Reads a conversation's history from the event store (never from the read models): its own stream, the
 * match it came from, and its participants' agent streams up to its end (the agents as they were while it
 * ran: criteria changed, paused, resumed). Null when the conversation was never started.
 */
export async function loadHistory(store: EventStore<StoredEvent>, conversationId: number): Promise<LoadedHistory | null> {
  const conversationStream = streams.conversation(conversationId);
  const own = await store.readStream(conversationStream);
  const started = startOf(own);
  if (!started) return null;
  const agentStreams = started.participants.map((participant) => streams.agent(participant.agentId));
  const related = [...(started.matchId ? [streams.match(started.matchId)] : []), ...agentStreams];
  const read = await Promise.all(related.map((stream) => store.readStream(stream)));
  const others = read.flat();
  const lastVersion = (events: readonly StoredEvent[]) => events[events.length - 1]?.streamVersion ?? -1;
  const versions = new Map([
    [conversationStream, lastVersion(own)],
    ...related.map((stream, i) => [stream, lastVersion(read[i]!)] as const),
  ]);

  const completed = own.find((event) => event.type === 'ConversationCompleted');
  const last = own[own.length - 1]!;
  const relevant = others.filter((event) => !completed || comparePositions(event.position, last.position) <= 0);
  const records = [...own, ...relevant].sort((a, b) => comparePositions(a.position, b.position)).map(toRecord);
  return { conversationId, started, records, streams: [conversationStream, ...related], versions };
}
