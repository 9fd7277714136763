/**
 * The domain events a process manager appends for a negotiator's move (besides the MessageSent with its words).
 * Every automated offer carries its product and why it was made; an agreement carries the product on to the deal
 * with the procuration fee the lender pays an introducing broker (docs/behaviour/offers.md, products.md). Ids are
 * passed in, so the same move under the same causation id yields the same events.
 */
import type { DomainEvent, EventOf, LoanTerms, OfferedProduct } from '@pf/events';
import type { Move } from './next-move';
import { pointOf, productAt } from './pricing';
import { otherSide, type Side } from './setup';
import type { NegotiationState } from './state';

export interface MoveIds {
  /** For the offer a move makes (offer, counter). */
  offerId: string;
  /** For the deal an acceptance records. */
  dealId: string;
}

export function moveEvents(state: NegotiationState, side: Side, move: Move, ids: MoveIds): DomainEvent[] {
  const conversationId = state.conversationId;
  const me = state.setup[side].agentId;
  const them = state.setup[otherSide(side)].agentId;
  const reject = (offerId: string): DomainEvent => ({ type: 'OfferRejected', data: { conversationId, offerId, byAgentId: me } });
  switch (move.kind) {
    case 'wait':
      return [];
    case 'offer':
    case 'counter': {
      const { round, terms, product, reason } = move;
      const made: DomainEvent = {
        type: 'OfferMade',
        data: { conversationId, offerId: ids.offerId, round, fromAgentId: me, toAgentId: them, terms, product, reason },
      };
      return move.kind === 'counter' ? [reject(move.rejectOfferId), made] : [made];
    }
    case 'accept': {
      const product = agreedProduct(state, move.terms, move.product);
      return [
        { type: 'OfferAccepted', data: { conversationId, offerId: move.offerId, byAgentId: me, terms: move.terms, reason: move.reason } },
        { type: 'DealAgreed', data: dealAgreed(state, ids.dealId, move.terms, product) },
        { type: 'ConversationCompleted', data: { conversationId, outcome: 'agreed', reason: 'Terms agreed' } },
      ];
    }
    case 'walk-away':
      return [
        ...(move.rejectOfferId ? [reject(move.rejectOfferId)] : []),
        { type: 'ConversationCompleted', data: { conversationId, outcome: 'no_agreement', reason: walkAwayReason(move) } },
      ];
    default: {
      const unknown: never = move;
      return unknown;
    }
  }
}

function walkAwayReason(move: Extract<Move, { kind: 'walk-away' }>): string {
  switch (move.reason) {
    case 'deadline':
      return 'No agreement by the deadline';
    case 'no-product':
      return `No product to price: ${move.detail}`;
  }
}

/** The accepted offer's product; a person's offer (recorded without one) is terms of the case's product, no cashback. */
function agreedProduct(state: NegotiationState, terms: LoanTerms, product: OfferedProduct | null): OfferedProduct | undefined {
  if (product) return product;
  const priced = state.setup.priced;
  return priced ? productAt(priced, pointOf(priced, terms, null)) : undefined;
}

function dealAgreed(
  state: NegotiationState,
  dealId: string,
  terms: LoanTerms,
  product: OfferedProduct | undefined,
): EventOf<'DealAgreed'>['data'] {
  const { borrower, lender, brokerAgentId, procurationFeePercent, priced } = state.setup;
  const propertyValue = priced?.needs.propertyValue ?? terms.loanAmount;
  // A broker introduced it: the lender's procuration fee is the broker's commission (docs/behaviour/products.md).
  const commission = brokerAgentId !== null ? { procurationFee: Math.round((terms.loanAmount * procurationFeePercent) / 100) } : {};
  return {
    dealId,
    conversationId: state.conversationId,
    borrowerAgentId: borrower.agentId,
    lenderAgentId: lender.agentId,
    brokerAgentId,
    propertyValue,
    loanAmount: terms.loanAmount,
    ltv: Math.round((terms.loanAmount / propertyValue) * 10_000) / 100,
    interestRate: terms.interestRate,
    termYears: terms.termYears,
    arrangementFee: terms.arrangementFee,
    ...commission,
    ...(product ? { product } : {}),
  };
}
