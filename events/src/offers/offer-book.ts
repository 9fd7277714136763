import type { LoanTerms } from '../negotiation';
import type { MoveReason, OfferedProduct } from './offer';

/**
 * Which offers stand in a conversation, folded in one place (docs/behaviour/offers.md, "Which offer stands"): the
 * conversation decider, the negotiation, History and the console's thread all read offers through this fold.
 *
 * - An offer is open when made. Its side's next offer supersedes it.
 * - A rejection rejects it; an acceptance accepts it and supersedes every other offer still open.
 * - The offer on the table is the latest offer still open; each side's standing offer is its latest, while open.
 */
export const OFFER_STATUSES = ['open', 'accepted', 'rejected', 'superseded'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export interface BookedOffer {
  offerId: string;
  round: number;
  fromAgentId: number;
  toAgentId: number;
  terms: LoanTerms;
  product: OfferedProduct | null;
  reason: MoveReason | null;
  /** Made by the person holding the side, not its agent. */
  byPerson: boolean;
  status: OfferStatus;
}

/** In the order they were made. */
export interface OfferBook {
  readonly offers: readonly BookedOffer[];
}

export const emptyOfferBook: OfferBook = { offers: [] };

/** The offer events the book folds (their data as recorded). */
export type OfferBookEvent =
  | {
      type: 'OfferMade';
      data: {
        offerId: string;
        round: number;
        fromAgentId: number;
        toAgentId: number;
        terms: LoanTerms;
        product?: OfferedProduct | undefined;
        reason?: MoveReason | undefined;
        byPerson?: true | undefined;
      };
    }
  | { type: 'OfferAccepted'; data: { offerId: string } }
  | { type: 'OfferRejected'; data: { offerId: string } };

const isOfferEvent = (event: { type: string }): event is OfferBookEvent =>
  event.type === 'OfferMade' || event.type === 'OfferAccepted' || event.type === 'OfferRejected';

/** The book after one more event of the conversation (any other event leaves it as it was). */
export function evolveOfferBook(book: OfferBook, event: { type: string; data: unknown }): OfferBook {
  if (!isOfferEvent(event)) return book;
  switch (event.type) {
    case 'OfferMade': {
      const { data } = event;
      const offers = book.offers.map((offer) =>
        offer.fromAgentId === data.fromAgentId && offer.status === 'open' ? { ...offer, status: 'superseded' as const } : offer,
      );
      return {
        offers: [
          ...offers,
          {
            offerId: data.offerId,
            round: data.round,
            fromAgentId: data.fromAgentId,
            toAgentId: data.toAgentId,
            terms: data.terms,
            product: data.product ?? null,
            reason: data.reason ?? null,
            byPerson: data.byPerson === true,
            status: 'open',
          },
        ],
      };
    }
    case 'OfferRejected':
      return {
        offers: book.offers.map((offer) =>
          offer.offerId === event.data.offerId && offer.status === 'open' ? { ...offer, status: 'rejected' as const } : offer,
        ),
      };
    case 'OfferAccepted':
      return {
        offers: book.offers.map((offer) =>
          offer.offerId === event.data.offerId
            ? { ...offer, status: 'accepted' as const }
            : offer.status === 'open'
              ? { ...offer, status: 'superseded' as const }
              : offer,
        ),
      };
  }
}

/** The book of a conversation's events in order. */
export function offerBookOf(events: Iterable<{ type: string; data: unknown }>): OfferBook {
  let book = emptyOfferBook;
  for (const event of events) book = evolveOfferBook(book, event);
  return book;
}

/** The offer on the table: the latest offer still open, or null. */
export function offerOnTheTable(book: OfferBook): BookedOffer | null {
  for (let i = book.offers.length - 1; i >= 0; i -= 1) if (book.offers[i]!.status === 'open') return book.offers[i]!;
  return null;
}

/** One side's standing offer: its latest, while still open; null when it has none standing. */
export function standingOfferOf(book: OfferBook, agentId: number): BookedOffer | null {
  for (let i = book.offers.length - 1; i >= 0; i -= 1) {
    const offer = book.offers[i]!;
    if (offer.fromAgentId === agentId) return offer.status === 'open' ? offer : null;
  }
  return null;
}

/** One side's latest offer whatever became of it (History's "each side's latest offer"); null before its first. */
export function latestOfferOf(book: OfferBook, agentId: number): BookedOffer | null {
  for (let i = book.offers.length - 1; i >= 0; i -= 1) if (book.offers[i]!.fromAgentId === agentId) return book.offers[i]!;
  return null;
}

export function offerById(book: OfferBook, offerId: string): BookedOffer | null {
  return book.offers.find((offer) => offer.offerId === offerId) ?? null;
}

/** The accepted offer, once one is. */
export function acceptedOffer(book: OfferBook): BookedOffer | null {
  return book.offers.find((offer) => offer.status === 'accepted') ?? null;
}
