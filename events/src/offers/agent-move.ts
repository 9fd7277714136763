import { z } from 'zod';
import type { ConversationEvent } from '../domain-events';
import { loanTerms } from '../negotiation';
import { moveReason, offeredProduct, offerTermsProblem } from './offer';
import { offerOnTheTable, type OfferBook } from './offer-book';

/**
 * What an automated agent asks of the conversation on its turn (docs/behaviour/offers.md): to offer (or counter), to
 * accept the offer on the table, or to walk away. It is an intent, not events: the conversation decides the offer
 * events from it here, against the offer book, so the conversation is the only author of offers. Ids are passed in
 * (deterministic from the turn), so a redelivered turn decides the same events.
 */
export const agentMove = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('offer'),
    offerId: z.string(),
    terms: loanTerms,
    product: offeredProduct,
    reason: moveReason,
    /** The other side's offer this counters, as the agent saw the table; the decider turns down the one standing. */
    answersOfferId: z.string().optional(),
  }),
  z.object({
    kind: z.literal('accept'),
    offerId: z.string(),
    reason: moveReason,
    deal: z.object({
      dealId: z.string(),
      /** The product of the terms, for an offer recorded without one (a person's): the case's product at those terms. */
      product: offeredProduct.optional(),
      propertyValue: z.number().positive(),
      /** The lender's procuration fee, percent of the loan, paid to the broker who introduced the deal (docs/behaviour/products.md). */
      procurationFeePercent: z.number().min(0),
    }),
  }),
  z.object({
    kind: z.literal('walk-away'),
    /** Why, in words: the completion's reason. */
    reason: z.string().min(1),
    /** The other side's offer it leaves unanswered, as the agent saw the table. */
    rejectOfferId: z.string().optional(),
  }),
]);
export type AgentMove = z.infer<typeof agentMove>;

/** The parties of a negotiation, by role. */
export interface NegotiatingParties {
  borrowerAgentId: number;
  lenderAgentId: number;
  brokerAgentId: number | null;
}

export interface OfferTable {
  conversationId: number;
  book: OfferBook;
  parties: NegotiatingParties;
}

type OfferEvent = Extract<
  ConversationEvent,
  { type: 'OfferMade' | 'OfferRejected' | 'OfferAccepted' | 'DealAgreed' | 'ConversationCompleted' }
>;

type OfferMadeData = Extract<ConversationEvent, { type: 'OfferMade' }>['data'];
type OfferAsMade = Omit<OfferMadeData, 'conversationId' | 'round' | 'fromAgentId' | 'toAgentId'>;

/** The other side's offer on the table, as one side sees it (null when the offer on the table is its own, or none). */
function theirsOnTheTable(book: OfferBook, agentId: number) {
  const onTable = offerOnTheTable(book);
  return onTable && onTable.fromAgentId !== agentId ? onTable : null;
}

/** What a counter-offer or a walk-away records first: the other side's offer on the table, turned down. */
function turnDown({ conversationId, book }: OfferTable, agentId: number): OfferEvent[] {
  const theirs = theirsOnTheTable(book, agentId);
  return theirs ? [{ type: 'OfferRejected', data: { conversationId, offerId: theirs.offerId, byAgentId: agentId } }] : [];
}

/**
 * One side's offer, an agent's or a person's: numbered by the book, to the other side, and turning down the other
 * side's offer on the table (a counter-offer). `offer` is the rest of the OfferMade as it is recorded, in its order.
 */
export function offerEvents(table: OfferTable, fromAgentId: number, offer: OfferAsMade): OfferEvent[] {
  const { conversationId, book, parties } = table;
  const toAgentId = fromAgentId === parties.borrowerAgentId ? parties.lenderAgentId : parties.borrowerAgentId;
  const { offerId, ...rest } = offer;
  return [
    ...turnDown(table, fromAgentId),
    { type: 'OfferMade', data: { conversationId, offerId, round: book.offers.length, fromAgentId, toAgentId, ...rest } },
  ];
}

/** The events an agent's move records, or why the conversation refuses it (in words). */
export type DecidedMove = { events: OfferEvent[] } | { refused: string };

/**
 * The offer events of one agent's move, decided against the book: an offer is numbered by the book and turns down the
 * other side's offer on the table (a counter); only the other side's offer on the table can be accepted, on its
 * recorded terms; a walk-away turns down the offer it leaves unanswered and ends the conversation.
 */
export function decideAgentMove(table: OfferTable, agentId: number, move: AgentMove): DecidedMove {
  const { conversationId, book, parties } = table;
  const side = agentId === parties.borrowerAgentId ? 'borrower' : agentId === parties.lenderAgentId ? 'lender' : null;
  if (!side) return { refused: "Only the borrower's or the lender's side makes offers" };
  const pending = theirsOnTheTable(book, agentId);
  const stale = (named: string | undefined) =>
    named !== undefined && named !== pending?.offerId ? `Offer ${named} is no longer the other side's offer on the table` : null;
  switch (move.kind) {
    case 'offer': {
      const problem = stale(move.answersOfferId) ?? offerTermsProblem(move.terms);
      if (problem) return { refused: problem };
      const { offerId, terms, product, reason } = move;
      return { events: offerEvents(table, agentId, { offerId, terms, product, reason }) };
    }
    case 'accept': {
      if (!pending || pending.offerId !== move.offerId)
        return { refused: `Offer ${move.offerId} is not the other side's offer on the table` };
      const { terms } = pending;
      const product = pending.product ?? move.deal.product;
      const { dealId, propertyValue, procurationFeePercent } = move.deal;
      // A broker introduced it: the lender's procuration fee is the broker's commission (docs/behaviour/products.md).
      const commission =
        parties.brokerAgentId !== null ? { procurationFee: Math.round((terms.loanAmount * procurationFeePercent) / 100) } : {};
      return {
        events: [
          { type: 'OfferAccepted', data: { conversationId, offerId: pending.offerId, byAgentId: agentId, terms, reason: move.reason } },
          {
            type: 'DealAgreed',
            data: {
              dealId,
              conversationId,
              borrowerAgentId: parties.borrowerAgentId,
              lenderAgentId: parties.lenderAgentId,
              brokerAgentId: parties.brokerAgentId,
              propertyValue,
              loanAmount: terms.loanAmount,
              ltv: Math.round((terms.loanAmount / propertyValue) * 10_000) / 100,
              interestRate: terms.interestRate,
              termYears: terms.termYears,
              arrangementFee: terms.arrangementFee,
              ...commission,
              ...(product ? { product } : {}),
            },
          },
          { type: 'ConversationCompleted', data: { conversationId, outcome: 'agreed', reason: 'Terms agreed' } },
        ],
      };
    }
    case 'walk-away': {
      const problem = stale(move.rejectOfferId);
      if (problem) return { refused: problem };
      return {
        events: [
          ...turnDown(table, agentId),
          { type: 'ConversationCompleted', data: { conversationId, outcome: 'no_agreement', reason: move.reason } },
        ],
      };
    }
    default: {
      const unknown: never = move;
      return unknown;
    }
  }
}
