/**
 * The negotiator's decision for one side, as plain data: open, accept, reject and counter, or walk away at the
 * deadline. Acceptance follows AC-next (accept what is at least as good as one's own next offer), and an offer
 * is only ever accepted when it lies inside both parties' limits and above the acceptor's reservation value.
 */
import type { LoanTerms } from '@pf/events';
import type { Rng } from '../rng';
import { proposeOffer } from './offer-strategy';
import { NO_OUTSIDE_OPTIONS, type OutsideOptions } from './outside-options';
import { canDeal, type NegotiationSetup, type NegotiatorProfile } from './setup';
import { lastOffer, offersBy, personsStandingOffer, type NegotiationState } from './state';
import { intersect, isEmpty, ISSUES, otherSide, snapInward, withinLimits, type Issue, type Side } from './terms-space';
import { utility } from './utility';

export interface NegotiationSettings {
  /** Offers allowed in all; the side due to answer the last one may only accept it or walk away. */
  deadlineRounds: number;
  opener: Side;
}

export const DEFAULT_NEGOTIATION_SETTINGS: NegotiationSettings = { deadlineRounds: 10, opener: 'borrower' };

type WaitReason = 'finished' | 'manual-mode' | 'not-your-turn';

export type Move =
  | { kind: 'wait'; reason: WaitReason }
  | { kind: 'offer'; round: number; terms: LoanTerms }
  | { kind: 'counter'; rejectOfferId: string; round: number; terms: LoanTerms }
  | { kind: 'accept'; offerId: string; terms: LoanTerms }
  | { kind: 'walk-away'; rejectOfferId: string | null; reason: 'deadline' }
  /** The parties' public limits leave no terms both could agree: said at once rather than haggled over. */
  | { kind: 'walk-away'; rejectOfferId: string | null; reason: 'no-common-terms'; apart: Array<Issue | 'propertyValue'> };

/** The side expected to move next, or null when the negotiation is over. */
export function whoseTurn(state: NegotiationState, settings: NegotiationSettings): Side | null {
  if (state.status !== 'negotiating') return null;
  const last = lastOffer(state);
  return last ? otherSide(last.side) : settings.opener;
}

export function nextMove(
  state: NegotiationState,
  side: Side,
  settings: NegotiationSettings,
  rng: Rng,
  elsewhere: OutsideOptions = NO_OUTSIDE_OPTIONS,
): Move {
  if (state.status !== 'negotiating' || elsewhere.agreedElsewhere) return { kind: 'wait', reason: 'finished' };
  if (state.isManualMode) return { kind: 'wait', reason: 'manual-mode' };
  if (whoseTurn(state, settings) !== side) return { kind: 'wait', reason: 'not-your-turn' };
  const me = state.setup[side];
  const round = state.offers.length;
  const onTable = lastOffer(state);
  const pending = onTable && onTable.status === 'open' ? onTable : undefined;
  const apart = issuesApart(state.setup);
  if (apart.length > 0) return { kind: 'walk-away', rejectOfferId: pending?.offerId ?? null, reason: 'no-common-terms', apart };
  // An offer is only accepted if no offer open to this side in another conversation is better.
  const outside = elsewhere.bestElsewhere ?? Number.NEGATIVE_INFINITY;
  // After a hand-back the agent continues from its person's standing offer: it never offers or accepts its side less.
  const held = personsStandingOffer(state, side);
  const heldWorth = held ? utility(me, held.terms) : Number.NEGATIVE_INFINITY;
  if (round >= settings.deadlineRounds) {
    if (pending && isAcceptable(state, me, pending.terms, Math.max(me.reservation, outside, heldWorth))) {
      return { kind: 'accept', offerId: pending.offerId, terms: pending.terms };
    }
    return { kind: 'walk-away', rejectOfferId: pending?.offerId ?? null, reason: 'deadline' };
  }
  const proposed = proposeOffer(state.setup, side, round, settings.deadlineRounds, offersBy(state, otherSide(side)), rng, outside);
  const terms = held && heldWorth > utility(me, proposed) ? held.terms : proposed;
  if (!pending) return { kind: 'offer', round, terms };
  const threshold = Math.max(me.reservation, utility(me, terms), outside);
  if (isAcceptable(state, me, pending.terms, threshold)) {
    return { kind: 'accept', offerId: pending.offerId, terms: pending.terms };
  }
  return { kind: 'counter', rejectOfferId: pending.offerId, round, terms };
}

/** Inside both parties' limits, for a property both deal in, and worth at least `threshold` to the acceptor. */
function isAcceptable(state: NegotiationState, acceptor: NegotiatorProfile, terms: LoanTerms, threshold: number): boolean {
  const { borrower, lender, propertyValue } = state.setup;
  return (
    canDeal(borrower, propertyValue) &&
    canDeal(lender, propertyValue) &&
    withinLimits(borrower.limits, terms) &&
    withinLimits(lender.limits, terms) &&
    utility(acceptor, terms) >= threshold - 1e-9
  );
}

/** Where both parties' stated limits leave nothing in common (the property value, or an issue); empty if none. */
export function issuesApart(setup: NegotiationSetup): Array<Issue | 'propertyValue'> {
  const { borrower, lender, propertyValue } = setup;
  const value = canDeal(borrower, propertyValue) && canDeal(lender, propertyValue) ? [] : (['propertyValue'] as const);
  const issues = ISSUES.filter((issue) => isEmpty(snapInward(issue, intersect(borrower.limits[issue], lender.limits[issue]))));
  return [...value, ...issues];
}
