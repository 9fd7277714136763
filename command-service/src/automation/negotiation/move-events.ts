/**
 * The domain events a process manager appends for a negotiator's move (besides the MessageSent with its words).
 * Ids are passed in, so the same move under the same causation id yields the same events.
 */
import type { DomainEvent, EventOf, LoanTerms } from '@pf/events';
import type { Move } from './next-move';
import type { NegotiationState } from './state';
import { otherSide, type Side } from './terms-space';

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
  const offer = (round: number, terms: LoanTerms): DomainEvent => ({
    type: 'OfferMade',
    data: { conversationId, offerId: ids.offerId, round, fromAgentId: me, toAgentId: them, terms },
  });
  const reject = (offerId: string): DomainEvent => ({
    type: 'OfferRejected',
    data: { conversationId, offerId, byAgentId: me },
  });
  switch (move.kind) {
    case 'wait':
      return [];
    case 'offer':
      return [offer(move.round, move.terms)];
    case 'counter':
      return [reject(move.rejectOfferId), offer(move.round, move.terms)];
    case 'accept':
      return [
        { type: 'OfferAccepted', data: { conversationId, offerId: move.offerId, byAgentId: me, terms: move.terms } },
        { type: 'DealAgreed', data: dealAgreed(state, ids.dealId, move.terms) },
        { type: 'ConversationCompleted', data: { conversationId, outcome: 'agreed', reason: 'Terms agreed' } },
      ];
    case 'walk-away':
      return [
        ...(move.rejectOfferId ? [reject(move.rejectOfferId)] : []),
        {
          type: 'ConversationCompleted',
          data: {
            conversationId,
            outcome: 'no_agreement',
            reason: move.reason === 'deadline' ? 'No agreement by the deadline' : `No terms both can agree on: ${apartWords(move.apart)}`,
          },
        },
      ];
    default: {
      const unknown: never = move;
      return unknown;
    }
  }
}

const APART_WORDS: Record<string, string> = {
  propertyValue: 'property value',
  interestRate: 'interest rate',
  termYears: 'loan term',
  loanAmount: 'loan amount',
  arrangementFee: 'arrangement fee',
};

export function apartWords(apart: readonly string[]): string {
  const words = apart.map((issue) => APART_WORDS[issue] ?? issue);
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '');
}

function dealAgreed(state: NegotiationState, dealId: string, terms: LoanTerms): EventOf<'DealAgreed'>['data'] {
  const { propertyValue, borrower, lender, brokerAgentId, procurationFeePercent } = state.setup;
  // A broker introduced it: the lender's procuration fee is the broker's commission (docs/behaviour/products.md).
  const commission = brokerAgentId !== null ? { procurationFee: Math.round((terms.loanAmount * (procurationFeePercent ?? 0)) / 100) } : {};
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
  };
}
