import { agentsSwitched, formatPosition, type Participant, type Takeover } from '@pf/events';
import type { HistoryRecord } from './load-history';

type Said = Takeover['messages'][number];
type Offered = Takeover['offers'][number];

/**
 * A time a person held control as the fold records it: by the index of the records that opened and closed it, and
 * with people as ids (their names are read for each answer, an account may have gone since).
 */
export interface TakeoverSpan {
  readonly userId: string;
  readonly sessionId: string | null;
  readonly agentIds: number[];
  readonly opened: number;
  readonly startedAt: string;
  readonly startPosition: string;
  closed: { index: number; at: Date; position: string; byUserId: string | null } | null;
  /** In the order recorded, each with the index of its record. */
  readonly messages: { index: number; said: Said }[];
  readonly offers: { index: number; offered: Offered }[];
}

/**
 * The times people held control, from the conversation's ManualModeChanged events: who held a side (person and
 * session), when, and what they said and offered meanwhile (their own messages and offers, recorded with their
 * metadata). Control is per side (docs/decisions/per-side-control.md): a side is one participant, so both sides may
 * be held at once and a hand-back closes only that side's span; a hand-over closes the giver's span and opens the
 * receiver's. Each event is read as it was recorded (agentsSwitched): older ones switched an owner's agents, or the
 * whole conversation, at once, and keep one span for all of them. The fold is causal: the spans of the first k
 * records are these spans as they stood at record k (takeoversUpTo).
 */
export function takeoverSpans(records: readonly HistoryRecord[], participants: readonly Participant[]): TakeoverSpan[] {
  const spans: TakeoverSpan[] = [];
  /** The open span of each side held, by its agent. */
  const open = new Map<number, TakeoverSpan>();
  records.forEach(({ recorded, event }, index) => {
    if (!event) return;
    const actor = recorded.metadata.actor;
    const at = recorded.recordedAt;
    const position = formatPosition(recorded.position);
    if (event.type === 'ManualModeChanged') {
      const switched = agentsSwitched(event, participants);
      const actorId = actor.kind === 'user' ? actor.userId : null;
      const holder = event.data.isManualMode ? (event.data.byUserId ?? actorId) : null;
      // Closed: the sides handed back, and those handed over to someone else (by the giver, who is the actor).
      for (const agentId of switched) {
        const span = open.get(agentId);
        if (!span || (holder !== null && span.userId === holder)) continue;
        span.closed = { index, at, position, byUserId: actorId !== null && actorId !== span.userId ? actorId : null };
        for (const [held, heldBy] of open) if (heldBy === span) open.delete(held);
      }
      const taken = holder === null ? [] : switched.filter((agentId) => !open.has(agentId));
      if (holder !== null && taken.length > 0) {
        const span: TakeoverSpan = {
          userId: holder,
          // The session is the actor's, except in a hand-over (the actor gave it): then the receiver's, as recorded.
          sessionId: (event.data.handedOverBy === undefined && actor.kind === 'user' ? actor.sessionId : event.data.sessionId) ?? null,
          agentIds: taken,
          opened: index,
          startedAt: at.toISOString(),
          startPosition: position,
          closed: null,
          messages: [],
          offers: [],
        };
        for (const agentId of taken) open.set(agentId, span);
        spans.push(span);
      }
      return;
    }
    if (actor.kind !== 'user') return;
    if (event.type === 'MessageSent') {
      const said = { position, agentId: event.data.fromAgentId, content: event.data.content, recordedAt: at.toISOString() };
      open.get(event.data.fromAgentId)?.messages.push({ index, said });
    } else if (event.type === 'OfferMade') {
      const offered = { position, agentId: event.data.fromAgentId, terms: event.data.terms, recordedAt: at.toISOString() };
      open.get(event.data.fromAgentId)?.offers.push({ index, offered });
    }
  });
  return spans;
}

/** How many of items (in the order of their records) come from the first `count` records. */
export function countBefore(items: readonly { index: number }[], count: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (items[middle]!.index < count) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The takeovers as they stood after the first `count` records of the spans' fold. `until`: the time a span still
 * held then is measured to (the moment looked at, or now).
 */
export function takeoversUpTo(
  spans: readonly TakeoverSpan[],
  count: number,
  until: Date,
  personName: (userId: string) => string,
): Takeover[] {
  return spans.flatMap((span) => {
    if (span.opened >= count) return [];
    const closed = span.closed && span.closed.index < count ? span.closed : null;
    const takeover: Takeover = {
      userId: span.userId,
      name: personName(span.userId),
      sessionId: span.sessionId,
      agentIds: span.agentIds,
      startedAt: span.startedAt,
      startPosition: span.startPosition,
      endedAt: closed ? closed.at.toISOString() : null,
      endPosition: closed ? closed.position : null,
      endedBy: closed && closed.byUserId !== null ? personName(closed.byUserId) : null,
      durationMs: Math.max(0, (closed ? closed.at : until).getTime() - Date.parse(span.startedAt)),
      messages: span.messages.slice(0, countBefore(span.messages, count)).map((m) => m.said),
      offers: span.offers.slice(0, countBefore(span.offers, count)).map((o) => o.offered),
    };
    return [takeover];
  });
}

/** The takeovers of these records, a span still held measured to `until`. */
export function takeoversOf(
  records: readonly HistoryRecord[],
  participants: readonly Participant[],
  until: Date,
  personName: (userId: string) => string,
): Takeover[] {
  return takeoversUpTo(takeoverSpans(records, participants), records.length, until, personName);
}
