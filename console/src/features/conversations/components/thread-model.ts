import {
  domainEvent,
  evolveOfferBook,
  emptyOfferBook,
  type AgentType,
  type HistoryEvent,
  type LoanTerms,
  type MessageView,
  type OfferedProduct,
  type OfferFigures,
  type OfferStatus,
} from '@pf/events';

/**
 * The thread as a person reads it: each message and each offer in order, on its party's side. Borrowers and
 * the brokers who introduce them speak from the left, lenders from the right (docs/behaviour/console-layout.md).
 * Offers come from the conversation's recorded events, so a card shows the terms exactly as offered, the figures the
 * read side computed for them, and what became of them as the one offer book folds it (docs/behaviour/offers.md).
 */
export type Side = 'left' | 'right';
export const sideOf = (type: AgentType): Side => (type === 'lender' ? 'right' : 'left');

interface ThreadMessage {
  kind: 'message';
  key: string;
  at: string;
  message: MessageView;
  /**
   * The person who wrote it, or whose action recorded it (the "Offer made: …" note of their Make offer), from the
   * recorded event; null when an agent or the automation did, or it is not known yet.
   */
  person: string | null;
  /** That person's profile photo, when they have one (docs/behaviour/settings.md, "Profile photo"). */
  personPhotoId: string | null;
  /** A note on how a side's person was read (docs/decisions/one-commitment-per-need.md), not something said. */
  isNote: boolean;
}

export interface ThreadOffer {
  kind: 'offer';
  key: string;
  at: string;
  offerId: string;
  round: number;
  fromAgentId: number;
  terms: LoanTerms;
  /** The product the terms are of; null for offers from before products. */
  product: OfferedProduct | null;
  /** Served with the event by the read side; null where none could be computed. */
  figures: OfferFigures | null;
  status: OfferStatus;
  /** The person who made it through the offer form, or null when the agent did. */
  person: string | null;
  personPhotoId: string | null;
}

export type ThreadItem = ThreadMessage | ThreadOffer;

/** Messages and offers merged in the order they were recorded. Pure. */
export function threadItems(messages: readonly MessageView[], history: readonly HistoryEvent[]): ThreadItem[] {
  const writers = new Map<number, string>();
  const writerPhotos = new Map<number, string>();
  const offerEvents = new Map<string, HistoryEvent>();
  let book = emptyOfferBook;
  for (const recorded of history) {
    // Read as the contract reads it; an erased or unknown event's remains are no offer.
    const parsed = domainEvent.safeParse({ type: recorded.type, data: recorded.data });
    if (!parsed.success) continue;
    const event = parsed.data;
    if (event.type === 'MessageSent' && recorded.actor.kind === 'person') {
      writers.set(event.data.messageId, recorded.actor.name);
      if (recorded.actor.photoId) writerPhotos.set(event.data.messageId, recorded.actor.photoId);
    }
    if (event.type === 'OfferMade') offerEvents.set(event.data.offerId, recorded);
    book = evolveOfferBook(book, event);
  }

  const items: ThreadItem[] = messages.map((message) => ({
    kind: 'message',
    key: `m${message.id}`,
    at: message.createdAt,
    message,
    // A person's own message, or the note their Make offer recorded (written as automated, with them as its
    // actor); an agent's line stays the agent's even when a person's action put it there (Add Demo Messages).
    person: !message.isAutomated || message.isReading ? (writers.get(message.id) ?? null) : null,
    personPhotoId: !message.isAutomated || message.isReading ? (writerPhotos.get(message.id) ?? null) : null,
    isNote: message.isReading === true,
  }));
  for (const offer of book.offers) {
    const event = offerEvents.get(offer.offerId)!;
    items.push({
      kind: 'offer',
      key: `o${offer.offerId}`,
      at: event.recordedAt,
      offerId: offer.offerId,
      round: offer.round,
      fromAgentId: offer.fromAgentId,
      terms: offer.terms,
      product: offer.product,
      figures: event.figures ?? null,
      status: offer.status,
      person: event.actor.kind === 'person' ? event.actor.name : null,
      personPhotoId: event.actor.kind === 'person' ? (event.actor.photoId ?? null) : null,
    });
  }
  // Stable: an offer recorded in the same instant as its message follows it.
  return items
    .map((item, order) => ({ item, order }))
    .sort(
      (a, b) =>
        Date.parse(a.item.at) - Date.parse(b.item.at) ||
        (a.item.kind === b.item.kind ? a.order - b.order : a.item.kind === 'message' ? -1 : 1),
    )
    .map(({ item }) => item);
}
