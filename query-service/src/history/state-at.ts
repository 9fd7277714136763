import {
  emptyOfferBook,
  evolveOfferBook,
  latestOfferOf,
  servedOfferFigures,
  canSeeConversation,
  comparePositions,
  conversationViewFor,
  conversationsView,
  formatPosition,
  messageOf,
  streams,
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
 * (`conversationsView` and `messageOf` from events/views, which the conversations read model runs), plus each side's
 * latest offer as the offer book folds it (docs/behaviour/offers.md) with its figures, and the takeovers so far. Pure:
 * `now` measures a takeover still held when the moment is the present.
 */
export function stateAt(
  conversationId: number,
  records: readonly HistoryRecord[],
  moment: Moment,
  requested: string,
  viewerFirmId: string,
  now: Date,
  personName: (userId: string) => string,
): HistoryState {
  const upTo = records.filter((record) => isBeforeOrAt(record, moment));
  let conversation: Conversation | null = null;
  const messages: MessageView[] = [];
  let book = emptyOfferBook;
  const recordedOffers = new Map<string, { position: string; recordedAt: string }>();
  for (const { recorded, event } of upTo) {
    if (!event || recorded.stream !== streams.conversation(conversationId)) continue;
    const at = recorded.recordedAt.toISOString();
    if (conversationsView.keyOf(event) === conversationId) conversation = conversationsView.evolve(conversation, event, at);
    const message = messageOf(conversation, event, at);
    if (message) messages.push(message);
    book = evolveOfferBook(book, event);
    if (event.type === 'OfferMade') recordedOffers.set(event.data.offerId, { position: formatPosition(recorded.position), recordedAt: at });
  }
  const offers: StandingOffer[] = [];
  for (const side of conversation?.participants ?? []) {
    const offer = latestOfferOf(book, side.agentId);
    const recorded = offer && recordedOffers.get(offer.offerId);
    if (!offer || !recorded) continue;
    offers.push({
      offerId: offer.offerId,
      agentId: side.agentId,
      agentName: side.name,
      agentType: side.type,
      round: offer.round,
      terms: offer.terms,
      status: offer.status,
      product: offer.product,
      reason: offer.reason,
      figures: servedOfferFigures(offer.terms, offer.product),
      ...recorded,
    });
  }
  const last = upTo[upTo.length - 1]?.recorded;
  const until = 'time' in moment ? moment.time : (last?.recordedAt ?? now);
  const participants = conversation?.participants ?? [];
  return {
    conversationId,
    at: { requested, position: last ? formatPosition(last.position) : null, recordedAt: last ? last.recordedAt.toISOString() : null },
    conversation: conversation && canSeeConversation(conversation, viewerFirmId) ? conversationViewFor(conversation, viewerFirmId) : null,
    messages,
    offers: offers.sort((a, b) => a.agentId - b.agentId),
    takeovers: takeoversOf(upTo, participants, until, personName),
  };
}
