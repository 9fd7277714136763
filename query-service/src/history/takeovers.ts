import { formatPosition, type Participant, type Takeover } from '@pf/events';
import type { HistoryRecord } from './load-history';

/** The key of a side whose ManualModeChanged events predate control per side (no ownerId): every side at once. */
const WHOLE_CONVERSATION = '*';

/**
 * The times people held control, from the conversation's ManualModeChanged events: who took over (person and
 * session, from the event's metadata), when, for how long, and what they said and offered meanwhile (their own
 * messages and offers, recorded with their metadata). Control is per side (docs/decisions/per-side-control.md): each side (the owner of
 * its agents, `ownerId`) has its own span, so both sides may be held at once and a hand-back closes only that
 * side's span. Events from before control per side (no ownerId) held and released the whole conversation.
 * `until`: the time a still-held span is measured to (the moment looked at, or now).
 */
export function takeoversOf(
  records: readonly HistoryRecord[],
  participants: readonly Participant[],
  until: Date,
  personName: (userId: string) => string,
): Takeover[] {
  const spans: Takeover[] = [];
  const open = new Map<string, Takeover>();
  const ownerOf = (agentId: number) => participants.find((p) => p.agentId === agentId)?.ownerId;
  /** The held span a person's message or offer from this agent belongs to: its side's, else a whole-conversation one. */
  const spanFor = (agentId: number) => open.get(ownerOf(agentId) ?? WHOLE_CONVERSATION) ?? open.get(WHOLE_CONVERSATION);
  const close = (span: Takeover, at: Date, position: string, endedBy: string | null) => {
    span.endedAt = at.toISOString();
    span.endPosition = position;
    span.endedBy = endedBy;
    span.durationMs = Math.max(0, at.getTime() - Date.parse(span.startedAt));
  };

  for (const { recorded, event } of records) {
    if (!event) continue;
    const actor = recorded.metadata.actor;
    const at = recorded.recordedAt;
    const position = formatPosition(recorded.position);
    if (event.type === 'ManualModeChanged') {
      const side = event.data.ownerId ?? WHOLE_CONVERSATION;
      if (event.data.isManualMode && !open.has(side) && actor.kind === 'user') {
        const owned = participants.filter((p) => p.ownerId === (event.data.ownerId ?? actor.userId)).map((p) => p.agentId);
        const span: Takeover = {
          userId: actor.userId,
          name: personName(actor.userId),
          sessionId: actor.sessionId ?? null,
          agentIds: event.data.agentIds?.length ? event.data.agentIds : owned.length ? owned : participants.map((p) => p.agentId),
          startedAt: at.toISOString(),
          startPosition: position,
          endedAt: null,
          endPosition: null,
          endedBy: null,
          durationMs: 0,
          messages: [],
          offers: [],
        };
        open.set(side, span);
        spans.push(span);
      } else if (!event.data.isManualMode) {
        // A side's hand-back closes that side's span (or a whole-conversation one it was part of); an old-style
        // hand-back of the whole conversation closes every span.
        const closing =
          side === WHOLE_CONVERSATION
            ? [...open.keys()]
            : open.has(side)
              ? [side]
              : open.has(WHOLE_CONVERSATION)
                ? [WHOLE_CONVERSATION]
                : [];
        for (const key of closing) {
          const span = open.get(key)!;
          close(span, at, position, actor.kind === 'user' && actor.userId !== span.userId ? personName(actor.userId) : null);
          open.delete(key);
        }
      }
      continue;
    }
    if (actor.kind !== 'user') continue;
    if (event.type === 'MessageSent') {
      spanFor(event.data.fromAgentId)?.messages.push({
        position,
        agentId: event.data.fromAgentId,
        content: event.data.content,
        recordedAt: at.toISOString(),
      });
    } else if (event.type === 'OfferMade') {
      spanFor(event.data.fromAgentId)?.offers.push({
        position,
        agentId: event.data.fromAgentId,
        terms: event.data.terms,
        recordedAt: at.toISOString(),
      });
    }
  }
  for (const span of open.values()) span.durationMs = Math.max(0, until.getTime() - Date.parse(span.startedAt));
  return spans;
}
