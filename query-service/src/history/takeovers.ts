import { agentsSwitched, formatPosition, type Participant, type Takeover } from '@pf/events';
import type { HistoryRecord } from './load-history';

/**
 * The times people held control, from the conversation's ManualModeChanged events: who held a side (person and
 * session), when, for how long, and what they said and offered meanwhile (their own messages and offers, recorded
 * with their metadata). Control is per side (docs/decisions/per-side-control.md): a side is one participant, so
 * both sides may be held at once and a hand-back closes only that side's span; a hand-over closes the giver's
 * span and opens the receiver's. Each event is read as it was recorded (agentsSwitched): older ones switched an
 * owner's agents, or the whole conversation, at once, and keep one span for all of them.
 * `until`: the time a still-held span is measured to (the moment looked at, or now).
 */
export function takeoversOf(
  records: readonly HistoryRecord[],
  participants: readonly Participant[],
  until: Date,
  personName: (userId: string) => string,
): Takeover[] {
  const spans: Takeover[] = [];
  /** The open span of each side held, by its agent. */
  const open = new Map<number, Takeover>();
  const close = (span: Takeover, at: Date, position: string, endedBy: string | null) => {
    span.endedAt = at.toISOString();
    span.endPosition = position;
    span.endedBy = endedBy;
    span.durationMs = Math.max(0, at.getTime() - Date.parse(span.startedAt));
    for (const [agentId, held] of open) if (held === span) open.delete(agentId);
  };

  for (const { recorded, event } of records) {
    if (!event) continue;
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
        close(span, at, position, actorId !== null && actorId !== span.userId ? personName(actorId) : null);
      }
      const taken = holder === null ? [] : switched.filter((agentId) => !open.has(agentId));
      if (holder !== null && taken.length > 0) {
        const span: Takeover = {
          userId: holder,
          name: personName(holder),
          // The session is the actor's, except in a hand-over (the actor gave it): then the receiver's, as recorded.
          sessionId: (event.data.handedOverBy === undefined && actor.kind === 'user' ? actor.sessionId : event.data.sessionId) ?? null,
          agentIds: taken,
          startedAt: at.toISOString(),
          startPosition: position,
          endedAt: null,
          endPosition: null,
          endedBy: null,
          durationMs: 0,
          messages: [],
          offers: [],
        };
        for (const agentId of taken) open.set(agentId, span);
        spans.push(span);
      }
      continue;
    }
    if (actor.kind !== 'user') continue;
    if (event.type === 'MessageSent') {
      open.get(event.data.fromAgentId)?.messages.push({
        position,
        agentId: event.data.fromAgentId,
        content: event.data.content,
        recordedAt: at.toISOString(),
      });
    } else if (event.type === 'OfferMade') {
      open.get(event.data.fromAgentId)?.offers.push({
        position,
        agentId: event.data.fromAgentId,
        terms: event.data.terms,
        recordedAt: at.toISOString(),
      });
    }
  }
  for (const span of new Set(open.values())) span.durationMs = Math.max(0, until.getTime() - Date.parse(span.startedAt));
  return spans;
}
