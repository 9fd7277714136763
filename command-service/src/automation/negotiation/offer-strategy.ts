/**
 * What each side offers next, on the case's price ladder (pricing.ts). The lender's agent concedes margin by its
 * strategy, from list price to its full discretion by its last offer; the borrower's agent asks for the least
 * concession that meets its aspiration, a true cost over the initial period that starts at the lender's floor and
 * rises by its strategy to its reservation by its last offer (docs/behaviour/negotiation.md, "Bespoke pricing").
 * After a hand-back an agent never offers its side less than its person's standing offer; the lender's agent never
 * retreats from its side's latest offer.
 */
import type { BookedOffer, LoanTerms, MoveReason, OfferedProduct } from '@pf/events';
import { conceded, sideTime } from './concession';
import {
  ladder,
  marginGiven,
  outsideLimits,
  pointOf,
  productAt,
  STEPS,
  termsAt,
  trueCostAt,
  trueCostOf,
  type PricedCase,
  type PricePoint,
} from './pricing';
import type { NegotiationSetup } from './setup';

export interface Proposal {
  terms: LoanTerms;
  product: OfferedProduct;
  reason: MoveReason;
}

export interface Timing {
  round: number;
  firstRound: number;
  deadlineRounds: number;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** The margin the lender's agent is prepared to have given by now, pounds. */
export function lenderTarget(setup: NegotiationSetup, priced: PricedCase, timing: Timing): number {
  const most = marginGiven(priced, ladder(priced).at(-1)!);
  return most * conceded(setup.lender.strategy, sideTime(timing.round, timing.firstRound, timing.deadlineRounds));
}

/** The true cost the borrower's agent aims for by now, pounds. */
export function borrowerAspiration(setup: NegotiationSetup, timing: Timing): number {
  const floor = setup.floorTrueCost ?? 0;
  const reservation = Math.max(floor, setup.borrower.reservation);
  return (
    floor + (reservation - floor) * conceded(setup.borrower.strategy, sideTime(timing.round, timing.firstRound, timing.deadlineRounds))
  );
}

/** An offer's margin given and true cost on this case, read from its terms and product. */
export function worth(priced: PricedCase, offer: Pick<BookedOffer, 'terms' | 'product'>): { given: number; trueCost: number } {
  const point = pointOf(priced, offer.terms, offer.product);
  return { given: marginGiven(priced, point), trueCost: trueCostOf(offer.terms, offer.product ?? productAt(priced, point)) };
}

export function lenderProposal(
  setup: NegotiationSetup,
  priced: PricedCase,
  timing: Timing,
  previous: BookedOffer | null,
  held: BookedOffer | undefined,
): Proposal {
  const points = ladder(priced);
  const target = lenderTarget(setup, priced, timing);
  // The step nearest its target (a step is given once the target is at least halfway to it).
  let index = 0;
  while (index + 1 < points.length) {
    const here = marginGiven(priced, points[index]!);
    const next = marginGiven(priced, points[index + 1]!);
    if (target + 1e-6 < (here + next) / 2) break;
    index += 1;
  }
  let point = points[index]!;
  const inside = (offer: BookedOffer | null | undefined): offer is BookedOffer =>
    !!offer && outsideLimits(priced, offer.terms, offer.product) === null;
  // Never back from its side's latest offer; never past its person's.
  if (inside(previous) && marginGiven(priced, point) < worth(priced, previous).given - 1e-6)
    point = pointOf(priced, previous.terms, previous.product);
  let rule = previous ? movedRule(priced, previous, point, setup.lender.strategy) : openingRule(priced);
  if (held && inside(held) && marginGiven(priced, point) > worth(priced, held).given + 1e-6) {
    point = pointOf(priced, held.terms, held.product);
    rule = "lender repeats its person's standing offer";
  }
  const trueCost = trueCostAt(priced, point);
  return {
    terms: termsAt(priced, point),
    product: productAt(priced, point),
    reason: {
      rule,
      figures: {
        round: timing.round,
        marginGiven: round2(marginGiven(priced, point)),
        targetMarginGiven: round2(target),
        maxMarginGiven: round2(marginGiven(priced, points.at(-1)!)),
        trueCost,
      },
    },
  };
}

export function borrowerProposal(
  setup: NegotiationSetup,
  priced: PricedCase,
  timing: Timing,
  bestElsewhere: number | null,
  held: BookedOffer | undefined,
): Proposal {
  const points = ladder(priced);
  const aspiration = borrowerAspiration(setup, timing);
  const aim = Math.min(aspiration, setup.borrower.reservation, bestElsewhere ?? Number.POSITIVE_INFINITY);
  let point = leastConcessionWithin(priced, points, aim);
  const floorCost = setup.floorTrueCost ?? 0;
  let rule =
    aim + 1e-6 < floorCost
      ? `borrower asks the lender to match its ${bestElsewhere !== null && bestElsewhere < aspiration ? 'offer elsewhere' : 'next-best product'}`
      : `borrower asks for the least that meets its aspiration (${setup.borrower.strategy})`;
  if (held && outsideLimits(priced, held.terms, held.product) === null) {
    const heldCost = worth(priced, held).trueCost;
    if (trueCostAt(priced, point) > heldCost + 1e-6) {
      point = pointOf(priced, held.terms, held.product);
      rule = "borrower repeats its person's standing offer";
    }
  }
  return {
    terms: termsAt(priced, point),
    product: productAt(priced, point),
    reason: {
      rule,
      figures: {
        round: timing.round,
        trueCost: trueCostAt(priced, point),
        aspiration: round2(aspiration),
        reservation: setup.borrower.reservation,
        ...(bestElsewhere !== null ? { bestElsewhere } : {}),
      },
    },
  };
}

/**
 * The first point of the ladder (the least the lender gives) whose true cost is at most `aim`. When even the floor
 * costs more (no zone of agreement, or a cheaper offer open elsewhere), the borrower asks the lender to match: the
 * floor's fee and cashback at the rate, in 0.05% steps below the floor's, that would bring the true cost to its aim.
 * That is beyond the lender's discretion, so the lender refuses it and the borrower never agrees above its aim.
 */
function leastConcessionWithin(priced: PricedCase, points: readonly PricePoint[], aim: number): PricePoint {
  // True cost falls along the ladder, so a binary search finds it with a few illustrations.
  let lo = 0;
  let hi = points.length - 1;
  if (trueCostAt(priced, points[hi]!) > aim + 1e-6) return matchingAsk(priced, points[hi]!, aim);
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (trueCostAt(priced, points[mid]!) <= aim + 1e-6) hi = mid;
    else lo = mid + 1;
  }
  return points[lo]!;
}

function matchingAsk(priced: PricedCase, floor: PricePoint, aim: number): PricePoint {
  const at = (steps: number): PricePoint => ({ ...floor, rateReduction: round2(floor.rateReduction + steps * STEPS.ratePercent) });
  // At most down to 0.05%: a rate is never asked at or below nothing.
  let lo = 1;
  let hi = Math.max(1, Math.floor((priced.listRate - floor.rateReduction - STEPS.ratePercent) / STEPS.ratePercent + 1e-9));
  if (trueCostAt(priced, at(hi)) > aim + 1e-6) return at(hi);
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (trueCostAt(priced, at(mid)) <= aim + 1e-6) hi = mid;
    else lo = mid + 1;
  }
  return at(lo);
}

function openingRule(priced: PricedCase): string {
  return priced.capReduction > 0 ? "lender opens at list price, the fee reduced to the borrower's cap" : 'lender opens at list price';
}

function movedRule(priced: PricedCase, previous: BookedOffer, point: PricePoint, strategy: string): string {
  const before = pointOf(priced, previous.terms, previous.product);
  const moved = [
    point.feeReduction > before.feeReduction + 1e-6 ? (point.feeReduction >= priced.listFee - 1e-6 ? 'fee waived' : 'fee reduced') : null,
    point.cashback > before.cashback + 1e-6 ? 'cashback added' : null,
    point.rateReduction > before.rateReduction + 1e-6 ? 'rate reduced' : null,
  ].filter((what): what is string => what !== null);
  return moved.length > 0 ? `lender concedes by ${strategy}: ${moved.join(', ')}` : `lender holds its offer (${strategy})`;
}
