/**
 * The negotiator's decision for one side, as plain data: open, accept, reject and counter, or walk away. An offer is
 * accepted when it is at least as good as the side's own next offer would be (AC-next) and inside the case's limits
 * (the borrower's loan and term, the product, the lender's discretion, the fee cap); it is never accepted beyond
 * the borrower's reservation, nor when a better offer is open to the borrower elsewhere, nor past a person's
 * standing offer after a hand-back (docs/behaviour/negotiation.md).
 */
import type { LoanTerms, MoveReason, OfferedProduct } from '@pf/events';
import { borrowerAspiration, borrowerProposal, lenderProposal, lenderTarget, worth, type Proposal, type Timing } from './offer-strategy';
import { NO_OUTSIDE_OPTIONS, type OutsideOptions } from './outside-options';
import { outsideLimits, type PricedCase } from './pricing';
import type { NegotiationSetup, Side } from './setup';
import { lastOffer, latestOf, offersMade, offerToAnswer, personsStandingOffer, type NegotiationState } from './state';

export interface NegotiationSettings {
  /** Offers allowed in all; the side due to answer the last one may only accept it or walk away. */
  deadlineRounds: number;
  /** Who makes the first offer: the borrower (its broker) asks first, as the platform runs it, or the lender prices first. */
  opener: Side;
}

export const DEFAULT_NEGOTIATION_SETTINGS: NegotiationSettings = { deadlineRounds: 10, opener: 'borrower' };

type WaitReason = 'finished' | 'manual-mode' | 'not-your-turn';

export type Move =
  | { kind: 'wait'; reason: WaitReason }
  | { kind: 'offer'; round: number; terms: LoanTerms; product: OfferedProduct; reason: MoveReason }
  | { kind: 'counter'; rejectOfferId: string; round: number; terms: LoanTerms; product: OfferedProduct; reason: MoveReason }
  | { kind: 'accept'; offerId: string; terms: LoanTerms; product: OfferedProduct | null; reason: MoveReason }
  | { kind: 'walk-away'; rejectOfferId: string | null; reason: 'deadline' }
  /** Nothing to price (no needs, no range, no line that can be offered): said at once. */
  | { kind: 'walk-away'; rejectOfferId: string | null; reason: 'no-product'; detail: string };

/** The side expected to move next, or null when the negotiation is over. */
export function whoseTurn(state: NegotiationState, settings: NegotiationSettings): Side | null {
  if (state.status !== 'negotiating') return null;
  const last = lastOffer(state);
  if (!last) return settings.opener;
  return last.fromAgentId === state.setup.borrower.agentId ? 'lender' : 'borrower';
}

export function nextMove(
  state: NegotiationState,
  side: Side,
  settings: NegotiationSettings,
  elsewhere: OutsideOptions = NO_OUTSIDE_OPTIONS,
): Move {
  if (state.status !== 'negotiating' || elsewhere.agreedElsewhere) return { kind: 'wait', reason: 'finished' };
  if (state.isManualMode) return { kind: 'wait', reason: 'manual-mode' };
  if (whoseTurn(state, settings) !== side) return { kind: 'wait', reason: 'not-your-turn' };
  const { setup } = state;
  const pending = offerToAnswer(state, side);
  const rejectOfferId = pending?.offerId ?? null;
  const priced = setup.priced;
  if (!priced) return { kind: 'walk-away', rejectOfferId, reason: 'no-product', detail: setup.noProduct ?? 'no product fits the needs' };
  const round = offersMade(state);
  const bestElsewhere = side === 'borrower' ? elsewhere.bestElsewhere : null;
  const timing: Timing = { round, firstRound: settings.opener === side ? 0 : 1, deadlineRounds: settings.deadlineRounds };
  const held = personsStandingOffer(state, side);
  if (round >= settings.deadlineRounds) {
    const last = { ...timing, round: settings.deadlineRounds - 1 };
    if (pending && acceptable(setup, priced, side, pending, last, bestElsewhere, held, null))
      return accept(setup, priced, side, pending, last, bestElsewhere);
    return { kind: 'walk-away', rejectOfferId, reason: 'deadline' };
  }
  const proposal: Proposal =
    side === 'lender'
      ? lenderProposal(setup, priced, timing, latestOf(state, 'lender'), held)
      : borrowerProposal(setup, priced, timing, bestElsewhere, held);
  if (!pending) return { kind: 'offer', round, ...proposal };
  if (acceptable(setup, priced, side, pending, timing, bestElsewhere, held, proposal))
    return accept(setup, priced, side, pending, timing, bestElsewhere);
  return { kind: 'counter', rejectOfferId: pending.offerId, round, ...proposal };
}

type Offer = { offerId: string; terms: LoanTerms; product: OfferedProduct | null };

/** Whether `side` may accept `offer` now: inside the limits, within its reservation, and as good as its own next offer. */
function acceptable(
  setup: NegotiationSetup,
  priced: PricedCase,
  side: Side,
  offer: Offer,
  timing: Timing,
  bestElsewhere: number | null,
  held: Offer | undefined,
  next: Proposal | null,
): boolean {
  if (outsideLimits(priced, offer.terms, offer.product) !== null) return false;
  const value = worth(priced, offer);
  const heldValue = held && outsideLimits(priced, held.terms, held.product) === null ? worth(priced, held) : null;
  if (side === 'lender') {
    if (heldValue && value.given > heldValue.given + 1e-6) return false;
    const ownNext = next ? worth(priced, next).given : Number.POSITIVE_INFINITY;
    return value.given <= Math.max(ownNext, lenderTarget(setup, priced, timing)) + 1e-6;
  }
  if (value.trueCost > setup.borrower.reservation + 1e-6) return false;
  if (bestElsewhere !== null && value.trueCost > bestElsewhere + 1e-6) return false;
  if (heldValue && value.trueCost > heldValue.trueCost + 1e-6) return false;
  const ownNext = next ? worth(priced, next).trueCost : Number.NEGATIVE_INFINITY;
  return value.trueCost <= Math.max(ownNext, borrowerAspiration(setup, timing)) + 1e-6;
}

function accept(setup: NegotiationSetup, priced: PricedCase, side: Side, offer: Offer, timing: Timing, bestElsewhere: number | null): Move {
  const value = worth(priced, offer);
  const figures: Record<string, number> =
    side === 'lender'
      ? {
          round: timing.round,
          marginGiven: Math.round(value.given * 100) / 100,
          targetMarginGiven: Math.round(lenderTarget(setup, priced, timing) * 100) / 100,
          trueCost: value.trueCost,
        }
      : {
          round: timing.round,
          trueCost: value.trueCost,
          aspiration: Math.round(borrowerAspiration(setup, timing) * 100) / 100,
          reservation: setup.borrower.reservation,
          ...(bestElsewhere !== null ? { bestElsewhere } : {}),
        };
  const rule =
    side === 'lender'
      ? 'lender accepts: within its discretion and no more than it would give next'
      : 'borrower accepts: true cost within its aspiration and its reservation';
  return { kind: 'accept', offerId: offer.offerId, terms: offer.terms, product: offer.product, reason: { rule, figures } };
}
