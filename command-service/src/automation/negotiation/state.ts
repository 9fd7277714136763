/**
 * The state of one negotiation, evolved from the conversation's domain events (OfferMade, OfferAccepted,
 * OfferRejected, MessageSent, ManualModeChanged, ConversationCompleted), so a process manager can rebuild it by
 * replaying the stream and an auditor can replay exactly what was offered. Which offer stands is the offer book's
 * rule (events/src/offers, docs/behaviour/offers.md), not this module's.
 */
import {
  emptyOfferBook,
  evolveOfferBook,
  latestOfferOf,
  offerOnTheTable,
  switchesWholeConversation,
  type BookedOffer,
  type DomainEvent,
  type LoanTerms,
  type OfferBook,
  type OfferedProduct,
} from '@pf/events';
import type { NegotiationSetup, Side } from './setup';

export interface NegotiationState {
  conversationId: number;
  setup: NegotiationSetup;
  book: OfferBook;
  status: 'negotiating' | 'agreed' | 'ended';
  agreed: { offerId: string; terms: LoanTerms; product: OfferedProduct | null; byAgentId: number } | null;
  isManualMode: boolean;
  /** Messages sent per agent id, so an agent greets once and the broker speaks in turn. */
  messagesSent: Record<number, number>;
}

export function initialNegotiationState(conversationId: number, setup: NegotiationSetup): NegotiationState {
  return { conversationId, setup, book: emptyOfferBook, status: 'negotiating', agreed: null, isManualMode: false, messagesSent: {} };
}

export function sideOf(state: NegotiationState, agentId: number): Side | null {
  if (agentId === state.setup.borrower.agentId) return 'borrower';
  if (agentId === state.setup.lender.agentId) return 'lender';
  return null;
}

export function evolveNegotiation(state: NegotiationState, event: DomainEvent): NegotiationState {
  if (!('conversationId' in event.data) || event.data.conversationId !== state.conversationId) return state;
  switch (event.type) {
    case 'OfferMade':
      return sideOf(state, event.data.fromAgentId) ? { ...state, book: evolveOfferBook(state.book, event) } : state;
    case 'OfferRejected':
      return { ...state, book: evolveOfferBook(state.book, event) };
    case 'OfferAccepted': {
      const book = evolveOfferBook(state.book, event);
      const { offerId, terms, byAgentId } = event.data;
      const product = book.offers.find((offer) => offer.offerId === offerId)?.product ?? null;
      return { ...state, book, status: 'agreed', agreed: { offerId, terms, product, byAgentId } };
    }
    case 'MessageSent': {
      if (event.data.reading) return state;
      const from = event.data.fromAgentId;
      return { ...state, messagesSent: { ...state.messagesSent, [from]: (state.messagesSent[from] ?? 0) + 1 } };
    }
    case 'ManualModeChanged':
      // Only a switch of the whole conversation (written before control was per side) stops the engine here;
      // a side taken over is silenced by the negotiator's per-agent check (isAgentSilenced), the other side goes on.
      return switchesWholeConversation(event) ? { ...state, isManualMode: event.data.isManualMode } : state;
    case 'ConversationCompleted':
      return state.status === 'agreed' ? state : { ...state, status: 'ended' };
    default:
      return state;
  }
}

/** Offers made so far (the round of the next one). */
export function offersMade(state: NegotiationState): number {
  return state.book.offers.length;
}

/** The latest offer made, whatever became of it. */
export function lastOffer(state: NegotiationState): BookedOffer | undefined {
  return state.book.offers.at(-1);
}

/** The offer on the table (open, made by the other side of `side`), which `side` answers. */
export function offerToAnswer(state: NegotiationState, side: Side): BookedOffer | null {
  const onTable = offerOnTheTable(state.book);
  return onTable && onTable.fromAgentId !== state.setup[side].agentId ? onTable : null;
}

/** A side's latest offer whatever became of it (its "own previous offer" for the words and for never retreating). */
export function latestOf(state: NegotiationState, side: Side): BookedOffer | null {
  return latestOfferOf(state.book, state.setup[side].agentId);
}

/** A side's offers, in order. */
function offersOf(state: NegotiationState, side: Side): BookedOffer[] {
  return state.book.offers.filter((offer) => offer.fromAgentId === state.setup[side].agentId);
}

/**
 * The side's last offer made by the person who held it, if any: after a hand-back its agent continues from there and
 * never offers its side less (docs/behaviour/negotiation.md, "After a hand-back").
 */
export function personsStandingOffer(state: NegotiationState, side: Side): BookedOffer | undefined {
  return offersOf(state, side)
    .filter((offer) => offer.byPerson)
    .at(-1);
}
