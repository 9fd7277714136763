import { agentsSwitched, type DomainEvent, type Participant } from '@pf/events';

/**
 * The agent response time, made real (docs/behaviour/conversations.md, "Response time"): while an owner holds their side of a conversation by hand
 * and the other side has spoken since the owner last did, the owner has the response time of their agent to
 * answer; past it, the agent takes the side back (automation/process-managers/response-time-keeper.ts). Everything here is folded from
 * events alone, so a restart (or a new leader) finds the same sides overdue: no timer holds any of it.
 */

/** What one conversation needs for the rule; `at` are the events' recorded times in ms (absent in a decider). */
export interface SideClock {
  participants: readonly Participant[];
  /** Owners holding a side of theirs by hand, with when they took it (0 when unknown). */
  manual: Map<string, number>;
  /** The sides held by hand (a side is one participant), whose owners make `manual`. */
  held: ReadonlySet<number>;
  /**
   * Owners the other side is waiting on: the first speech (message, offer, acceptance or rejection) of another
   * owner since theirs, by a key naming that speech (so a hand-back names exactly what went unanswered).
   */
  waiting: Map<string, { key: string; at: number }>;
  completed: boolean;
}

type Event = DomainEvent;

const speechOf = (event: Event): { agentId: number; key: string } | null => {
  switch (event.type) {
    case 'MessageSent':
      // A note on how a person was read is nobody's speech.
      if (event.data.reading) return null;
      return { agentId: event.data.fromAgentId, key: `message:${event.data.messageId}` };
    case 'OfferMade':
      return { agentId: event.data.fromAgentId, key: `offer:${event.data.offerId}` };
    case 'OfferAccepted':
    case 'OfferRejected':
      return { agentId: event.data.byAgentId, key: `${event.type}:${event.data.offerId}` };
    default:
      return null;
  }
};

/** One event of a conversation's stream; returns the same clock when nothing changed for the rule. */
export function evolveSideClock(clock: SideClock | null, event: Event, at = 0): SideClock | null {
  if (event.type === 'ConversationStarted') {
    return clock ?? { participants: event.data.participants, manual: new Map(), held: new Set(), waiting: new Map(), completed: false };
  }
  if (!clock) return null;
  if (event.type === 'ConversationCompleted') return { ...clock, completed: true };
  if (event.type === 'ManualModeChanged') {
    // The sides it switched, read as recorded (the conversations view's agentsSwitched); an owner holds while any
    // side of theirs is held.
    const held = new Set(clock.held);
    for (const agentId of agentsSwitched(event, clock.participants)) {
      if (event.data.isManualMode) held.add(agentId);
      else held.delete(agentId);
    }
    const manual = new Map<string, number>();
    for (const p of clock.participants) if (held.has(p.agentId)) manual.set(p.ownerId, clock.manual.get(p.ownerId) ?? at);
    return { ...clock, manual, held };
  }
  const speech = speechOf(event);
  const speaker = speech ? clock.participants.find((p) => p.agentId === speech.agentId)?.ownerId : undefined;
  if (!speech || speaker === undefined) return clock;
  const waiting = new Map(clock.waiting);
  // The speaker has answered; every other owner now owes an answer, from this speech unless already owing one.
  waiting.delete(speaker);
  for (const owner of new Set(clock.participants.map((p) => p.ownerId))) {
    if (owner !== speaker && !waiting.has(owner)) waiting.set(owner, { key: speech.key, at });
  }
  return { ...clock, waiting };
}

export interface OverdueSide {
  conversationId: number;
  ownerId: string;
  /** The owner's agents in the conversation, and the response time that ran out (the shortest of theirs). */
  agentIds: number[];
  hours: number;
  /** The unanswered speech, for the decision's key and the decider's check that it is still unanswered. */
  key: string;
}

/**
 * The sides past their response time at `now`: held by hand, owing an answer since max(the speech, the takeover)
 * for at least the response time (`hourMs` long hours). Agents without a response time (older ones) never time out.
 */
export function overdueSides(
  clocks: ReadonlyMap<number, SideClock>,
  responseTimeOf: (agentId: number) => number | undefined,
  now: number,
  hourMs: number,
): OverdueSide[] {
  const overdue: OverdueSide[] = [];
  for (const [conversationId, clock] of clocks) {
    if (clock.completed) continue;
    for (const [ownerId, since] of clock.manual) {
      const owed = clock.waiting.get(ownerId);
      if (!owed) continue;
      const agentIds = clock.participants.filter((p) => p.ownerId === ownerId).map((p) => p.agentId);
      const hours = Math.min(...agentIds.map((id) => responseTimeOf(id) ?? Infinity));
      if (!Number.isFinite(hours)) continue;
      if (now - Math.max(owed.at, since) >= hours * hourMs) overdue.push({ conversationId, ownerId, agentIds, hours, key: owed.key });
    }
  }
  return overdue;
}
