import {
  canSeeConversation,
  comparePositions,
  conversationViewFor,
  conversationsView,
  formatPosition,
  messageOf,
  participantOf,
  type Conversation,
  type HistoryState,
  type MessageView,
  type Position,
  type StandingOffer,
} from '@pf/events';
import type { HistoryRecord } from './load-history';
import { takeoversOf } from './takeovers';

/** A moment to look at: a global position (inclusive) or a time (events recorded at or before it). */
export type Moment = { readonly position: Position } | { readonly time: Date };

function isBeforeOrAt(record: HistoryRecord, moment: Moment): boolean {
  return 'position' in moment
    ? comparePositions(record.recorded.position, moment.position) <= 0
    : record.recorded.recordedAt.getTime() <= moment.time.getTime();
}

/**
 * The conversation as it stood at a moment: its events up to then folded by the read model's own fold
 * (`conversationsView` and `messageOf` from events/views, which the conversations read model runs), plus each side's latest offer and the takeovers so far. Pure: `now` measures a
 * takeover still held when the moment is the present.
 */
export function stateAt(
  conversationId: number,
  records: readonly HistoryRecord[],
  moment: Moment,
  requested: string,
  viewerId: string,
  now: Date,
  personName: (userId: string) => string,
): HistoryState {
  const upTo = records.filter((record) => isBeforeOrAt(record, moment));
  let conversation: Conversation | null = null;
  const messages: MessageView[] = [];
  const offers = new Map<number, StandingOffer>();
  const byOfferId = new Map<string, StandingOffer>();
  for (const { recorded, event } of upTo) {
    if (!event || recorded.stream !== `conversation-${conversationId}`) continue;
    const at = recorded.recordedAt.toISOString();
    if (conversationsView.keyOf(event) === conversationId) conversation = conversationsView.evolve(conversation, event, at);
    const message = messageOf(conversation, event, at);
    if (message) messages.push(message);
    if (event.type === 'OfferMade' && conversation) {
      const side = participantOf(conversation, event.data.fromAgentId);
      if (!side) continue;
      const offer: StandingOffer = {
        offerId: event.data.offerId,
        agentId: side.agentId,
        agentName: side.name,
        agentType: side.type,
        round: event.data.round,
        terms: event.data.terms,
        status: 'open',
        position: formatPosition(recorded.position),
        recordedAt: at,
      };
      offers.set(side.agentId, offer);
      byOfferId.set(offer.offerId, offer);
    } else if (event.type === 'OfferAccepted' || event.type === 'OfferRejected') {
      const offer = byOfferId.get(event.data.offerId);
      if (offer) offer.status = event.type === 'OfferAccepted' ? 'accepted' : 'rejected';
    }
  }
  const last = upTo[upTo.length - 1]?.recorded;
  const until = 'time' in moment ? moment.time : (last?.recordedAt ?? now);
  const participants = conversation?.participants ?? [];
  return {
    conversationId,
    at: { requested, position: last ? formatPosition(last.position) : null, recordedAt: last ? last.recordedAt.toISOString() : null },
    conversation: conversation && canSeeConversation(conversation, viewerId) ? conversationViewFor(conversation, viewerId) : null,
    messages,
    offers: [...offers.values()].sort((a, b) => a.agentId - b.agentId),
    takeovers: takeoversOf(upTo, participants, until, personName),
  };
}
