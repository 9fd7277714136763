/**
 * A negotiator's move as what it asks of the conversation (an AgentMove intent): the conversation decides the offer
 * events from it (decideAgentMove, events/src/offers), so the engine never writes offer events itself. Every automated
 * offer carries its product and why it was made; an acceptance carries what the deal needs beyond the offer accepted
 * (docs/behaviour/offers.md, products.md). Ids are passed in, so the same move under the same causation id is the same
 * intent.
 */
import { decideAgentMove, type AgentMove, type DomainEvent, type OfferTable } from '@pf/events';
import type { Move } from './next-move';
import { pointOf, productAt } from './pricing';
import type { Side } from './setup';
import type { NegotiationState } from './state';

export interface MoveIds {
  /** For the offer a move makes (offer, counter). */
  offerId: string;
  /** For the deal an acceptance records. */
  dealId: string;
}

/** The intent of a move; null for a wait (nothing to ask). */
export function moveIntent(state: NegotiationState, move: Move, ids: MoveIds): AgentMove | null {
  switch (move.kind) {
    case 'wait':
      return null;
    case 'offer':
      return { kind: 'offer', offerId: ids.offerId, terms: move.terms, product: move.product, reason: move.reason };
    case 'counter':
      return {
        kind: 'offer',
        offerId: ids.offerId,
        terms: move.terms,
        product: move.product,
        reason: move.reason,
        answersOfferId: move.rejectOfferId,
      };
    case 'accept': {
      const { priced, procurationFeePercent } = state.setup;
      // A person's offer is recorded without a product: its terms are of the case's product, with no cashback.
      const product = move.product === null && priced ? productAt(priced, pointOf(priced, move.terms, null)) : undefined;
      return {
        kind: 'accept',
        offerId: move.offerId,
        reason: move.reason,
        deal: {
          dealId: ids.dealId,
          ...(product ? { product } : {}),
          propertyValue: priced?.needs.propertyValue ?? move.terms.loanAmount,
          procurationFeePercent,
        },
      };
    }
    case 'walk-away':
      return { kind: 'walk-away', reason: walkAwayReason(move), ...(move.rejectOfferId ? { rejectOfferId: move.rejectOfferId } : {}) };
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

/** The negotiation's offers as the offer rules read them. */
export function offerTableOf(state: NegotiationState): OfferTable {
  const { borrower, lender, brokerAgentId } = state.setup;
  return {
    conversationId: state.conversationId,
    book: state.book,
    parties: { borrowerAgentId: borrower.agentId, lenderAgentId: lender.agentId, brokerAgentId },
  };
}

/**
 * The events the conversation records for a side's move, decided by the conversation's own rule (decideAgentMove):
 * for playing a negotiation in memory (tests, the bench). A move the rule refuses is an error here.
 */
export function decidedMoveEvents(state: NegotiationState, side: Side, move: Move, ids: MoveIds): DomainEvent[] {
  const intent = moveIntent(state, move, ids);
  if (!intent) return [];
  const decided = decideAgentMove(offerTableOf(state), state.setup[side].agentId, intent);
  if ('refused' in decided) throw new Error(`The conversation refused the ${side}'s ${move.kind}: ${decided.refused}`);
  return decided.events;
}
