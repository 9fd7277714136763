import type { AgentType, HistoryEvent, LoanTerms, MessageView } from '@pf/events';

/**
 * The thread as a person reads it: each message and each offer in order, on its party's side. Borrowers and
 * the brokers who introduce them speak from the left, lenders from the right (docs/behaviour/console-layout.md).
 * Offers come from the conversation's recorded events, so a card shows the terms exactly as offered and what
 * became of them.
 */
export type Side = 'left' | 'right';
export const sideOf = (type: AgentType): Side => (type === 'lender' ? 'right' : 'left');

export type OfferStatus = 'open' | 'accepted' | 'rejected' | 'superseded';

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
  status: OfferStatus;
  /** The person who made it through the offer form, or null when the agent did. */
  person: string | null;
}

export type ThreadItem = ThreadMessage | ThreadOffer;

interface OfferData {
  offerId: string;
  round: number;
  fromAgentId: number;
  terms: LoanTerms;
}

/** Messages and offers merged in the order they were recorded. Pure. */
export function threadItems(messages: readonly MessageView[], history: readonly HistoryEvent[]): ThreadItem[] {
  const writers = new Map<number, string>();
  const decided = new Map<string, 'accepted' | 'rejected'>();
  const offers: OfferData[] = [];
  const offerEvents: HistoryEvent[] = [];
  for (const event of history) {
    const data = event.data as Record<string, unknown> | null;
    if (!data) continue;
    if (event.type === 'MessageSent' && event.actor.kind === 'person') writers.set(data.messageId as number, event.actor.name);
    else if (event.type === 'OfferMade') {
      offers.push(data as unknown as OfferData);
      offerEvents.push(event);
    } else if (event.type === 'OfferAccepted') decided.set(data.offerId as string, 'accepted');
    else if (event.type === 'OfferRejected') decided.set(data.offerId as string, 'rejected');
  }
  const agreed = [...decided.values()].includes('accepted');
  const lastOfferBy = new Map<number, string>();
  for (const offer of offers) lastOfferBy.set(offer.fromAgentId, offer.offerId);

  const items: ThreadItem[] = messages.map((message) => ({
    kind: 'message',
    key: `m${message.id}`,
    at: message.createdAt,
    message,
    // A person's own message, or the note their Make offer recorded (written as automated, with them as its
    // actor); an agent's line stays the agent's even when a person's action put it there (Add Demo Messages).
    person: !message.isAutomated || message.isReading ? (writers.get(message.id) ?? null) : null,
    isNote: message.isReading === true,
  }));
  offers.forEach((offer, i) => {
    const event = offerEvents[i]!;
    // An offer is superseded by its side's next one, and every offer still open by the one accepted.
    const status: OfferStatus =
      decided.get(offer.offerId) ?? (lastOfferBy.get(offer.fromAgentId) === offer.offerId && !agreed ? 'open' : 'superseded');
    items.push({
      kind: 'offer',
      key: `o${offer.offerId}`,
      at: event.recordedAt,
      offerId: offer.offerId,
      round: offer.round,
      fromAgentId: offer.fromAgentId,
      terms: offer.terms,
      status,
      person: event.actor.kind === 'person' ? event.actor.name : null,
    });
  });
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
