import { describe, expect, it } from 'vitest';
import type { ConversationEvent } from '../domain-events';
import { FURNESS_FIVE_YEAR_FIX } from '../testing/fixtures';
import { decideAgentMove, type AgentMove, type OfferTable } from './agent-move';
import { emptyOfferBook, evolveOfferBook } from './offer-book';

// An agent's move is an intent: the conversation decides its offer events from the offer book (docs/behaviour/offers.md).
const terms = (interestRate: number) => ({ interestRate, termYears: 25, loanAmount: 240_000, arrangementFee: 999 });
const reason = { rule: 'a rule', figures: { round: 1 } };
const product = FURNESS_FIVE_YEAR_FIX;
const borrowerAsked: ConversationEvent = {
  type: 'OfferMade',
  data: { conversationId: 3, offerId: 'b1', round: 0, fromAgentId: 1, toAgentId: 2, terms: terms(4.1), product, reason },
};
const tableAfter = (...events: ConversationEvent[]): OfferTable => ({
  conversationId: 3,
  book: events.reduce(evolveOfferBook, emptyOfferBook),
  parties: { borrowerAgentId: 1, lenderAgentId: 2, brokerAgentId: null },
});
const lender = (table: OfferTable, move: AgentMove) => decideAgentMove(table, 2, move);
const counter = { kind: 'offer', offerId: 'l1', terms: terms(4.6), product, reason } as const;

describe("an agent's move, decided against the offer book", () => {
  it('a counter turns down the offer on the table and is numbered by the book', () => {
    expect(lender(tableAfter(borrowerAsked), { ...counter, answersOfferId: 'b1' })).toEqual({
      events: [
        { type: 'OfferRejected', data: { conversationId: 3, offerId: 'b1', byAgentId: 2 } },
        {
          type: 'OfferMade',
          data: { conversationId: 3, offerId: 'l1', round: 1, fromAgentId: 2, toAgentId: 1, terms: terms(4.6), product, reason },
        },
      ],
    });
  });

  it('refuses an answer to an offer no longer on the table, terms that cannot be an offer, and a broker', () => {
    const rejected: ConversationEvent = { type: 'OfferRejected', data: { conversationId: 3, offerId: 'b1', byAgentId: 2 } };
    expect(lender(tableAfter(borrowerAsked, rejected), { ...counter, answersOfferId: 'b1' })).toEqual({
      refused: "Offer b1 is no longer the other side's offer on the table",
    });
    expect(lender(tableAfter(), { ...counter, terms: { ...terms(4.6), loanAmount: 0 } })).toEqual({
      refused: 'terms.loanAmount: must be more than £0',
    });
    expect(decideAgentMove(tableAfter(), 7, counter)).toEqual({ refused: "Only the borrower's or the lender's side makes offers" });
  });

  it('accepts only the other side’s offer on the table, on its recorded terms, and agrees the deal in the same turn', () => {
    const accept = {
      kind: 'accept',
      offerId: 'b1',
      reason,
      deal: { dealId: 'deal-1', propertyValue: 320_000, procurationFeePercent: 0.35 },
    } as const;
    expect(lender(tableAfter(borrowerAsked), accept)).toEqual({
      events: [
        { type: 'OfferAccepted', data: { conversationId: 3, offerId: 'b1', byAgentId: 2, terms: terms(4.1), reason } },
        {
          type: 'DealAgreed',
          data: {
            dealId: 'deal-1',
            conversationId: 3,
            borrowerAgentId: 1,
            lenderAgentId: 2,
            brokerAgentId: null,
            propertyValue: 320_000,
            loanAmount: 240_000,
            ltv: 75,
            interestRate: 4.1,
            termYears: 25,
            arrangementFee: 999,
            product,
          },
        },
        { type: 'ConversationCompleted', data: { conversationId: 3, outcome: 'agreed', reason: 'Terms agreed' } },
      ],
    });
    // A broker introduced it: the lender's procuration fee on the agreed loan is the broker's commission.
    const introduced = { ...tableAfter(borrowerAsked), parties: { borrowerAgentId: 1, lenderAgentId: 2, brokerAgentId: 5 } };
    const agreed = lender(introduced, accept);
    expect('events' in agreed && agreed.events[1]).toMatchObject({ type: 'DealAgreed', data: { brokerAgentId: 5, procurationFee: 840 } });
    // Its own offer, or an offer not on the table, is no acceptance.
    expect(decideAgentMove(tableAfter(borrowerAsked), 1, accept)).toEqual({
      refused: "Offer b1 is not the other side's offer on the table",
    });
    expect(lender(tableAfter(borrowerAsked), { ...accept, offerId: 'zz' })).toEqual({
      refused: "Offer zz is not the other side's offer on the table",
    });
  });

  it('a walk-away turns down the offer it leaves and ends the conversation with its reason', () => {
    expect(lender(tableAfter(borrowerAsked), { kind: 'walk-away', reason: 'No agreement by the deadline', rejectOfferId: 'b1' })).toEqual({
      events: [
        { type: 'OfferRejected', data: { conversationId: 3, offerId: 'b1', byAgentId: 2 } },
        { type: 'ConversationCompleted', data: { conversationId: 3, outcome: 'no_agreement', reason: 'No agreement by the deadline' } },
      ],
    });
  });
});
