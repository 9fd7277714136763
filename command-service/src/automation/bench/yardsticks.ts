/**
 * Yardsticks for an agreement in the bespoke-pricing space (bench/README.md): each side's utility, the Pareto
 * frontier over every price point the lender's discretion allows (not only the ladder the agents walk), and the Nash
 * point. The borrower's utility is its true cost over the initial period, normalised from list price (0) to the
 * lender's floor (1); the lender's is the margin it keeps, from its full discretion (0) to list price (1).
 */
import { STEPS, marginGiven, productAt, termsAt, trueCostAt, trueCostOf, type PricedCase, type PricePoint } from '../negotiation/pricing';
import type { NegotiationSetup } from '../negotiation/setup';

export interface UtilityPoint {
  borrower: number;
  lender: number;
}

export interface Yardsticks {
  frontier: UtilityPoint[];
  nash: UtilityPoint;
  utilityOf(trueCost: number, given: number): UtilityPoint;
}

/** Null when there is no zone of agreement. */
export function yardsticks(setup: NegotiationSetup): Yardsticks | null {
  const { priced, listTrueCost: list, floorTrueCost: floor } = setup;
  if (!priced || list === null || floor === null || floor > setup.borrower.reservation + 1e-6) return null;
  const most = marginGiven(priced, priced.max);
  const utilityOf = (trueCost: number, given: number): UtilityPoint => ({
    borrower: list - floor > 1e-6 ? (list - trueCost) / (list - floor) : 1,
    lender: most > 1e-6 ? 1 - given / most : 1,
  });
  const points = grid(priced).map(({ point, trueCost }) => utilityOf(trueCost, marginGiven(priced, point)));
  const frontier = paretoFrontier(points);
  const reservation = utilityOf(setup.borrower.reservation, 0).borrower;
  let nash = frontier[0]!;
  let best = Number.NEGATIVE_INFINITY;
  for (const point of frontier) {
    if (point.borrower < reservation - 1e-9 || point.lender < -1e-9) continue;
    const product = (point.borrower - reservation) * point.lender;
    if (product > best) {
      best = product;
      nash = point;
    }
  }
  return { frontier, nash, utilityOf };
}

/**
 * Every price point within the discretion and the fee cap, with its true cost. A fee paid up front changes the true
 * cost pound for pound; a fee added to the loan also changes the payments, linearly in the balance (the annuity), so
 * it is interpolated between the highest and the lowest fee at each rate (to within pennies of rounding).
 */
function grid(priced: PricedCase): Array<{ point: PricePoint; trueCost: number }> {
  const { max, capReduction } = priced;
  const fees = [...steps(max.feeReduction, STEPS.feePounds)].filter((reduction) => reduction >= capReduction - 1e-9);
  const rates = steps(max.rateReduction, STEPS.ratePercent).map((r) => Math.round(r * 100) / 100);
  const cashbacks = steps(max.cashback, STEPS.cashbackPounds);
  const out: Array<{ point: PricePoint; trueCost: number }> = [];
  for (const rateReduction of rates) {
    const high = { rateReduction, feeReduction: fees[0] ?? 0, cashback: 0 };
    const low = { rateReduction, feeReduction: fees.at(-1) ?? 0, cashback: 0 };
    const costHigh = trueCostAt(priced, high);
    const costLow = priced.product.feeAddedToLoan
      ? trueCostOf(termsAt(priced, low), productAt(priced, low))
      : costHigh - (low.feeReduction - high.feeReduction);
    const span = low.feeReduction - high.feeReduction;
    for (const feeReduction of fees) {
      const share = span > 0 ? (feeReduction - high.feeReduction) / span : 0;
      const base = costHigh + (costLow - costHigh) * share;
      for (const cashback of cashbacks) out.push({ point: { rateReduction, feeReduction, cashback }, trueCost: base - cashback });
    }
  }
  return out;
}

function steps(max: number, step: number): number[] {
  const values: number[] = [];
  for (let value = 0; value < max - 1e-9; value += step) values.push(value);
  values.push(max);
  return values;
}

/** The non-dominated points, by the borrower's utility descending (the lender's then ascends). */
function paretoFrontier(points: readonly UtilityPoint[]): UtilityPoint[] {
  const sorted = [...points].sort((a, b) => b.borrower - a.borrower || b.lender - a.lender);
  const frontier: UtilityPoint[] = [];
  let bestLender = Number.NEGATIVE_INFINITY;
  for (const point of sorted) {
    if (point.lender > bestLender + 1e-12) {
      frontier.push(point);
      bestLender = point.lender;
    }
  }
  return frontier;
}

/** Euclidean distance in utility space from an outcome to the nearest point of the frontier (its segments). */
export function distanceToFrontier(frontier: readonly UtilityPoint[], point: UtilityPoint): number {
  if (frontier.length === 1) return distance(frontier[0]!, point);
  let nearest = Number.POSITIVE_INFINITY;
  for (let i = 1; i < frontier.length; i += 1) {
    const from = frontier[i - 1]!;
    const to = frontier[i]!;
    const db = to.borrower - from.borrower;
    const dl = to.lender - from.lender;
    const length = db * db + dl * dl;
    const s = length > 0 ? ((point.borrower - from.borrower) * db + (point.lender - from.lender) * dl) / length : 0;
    const t = Math.min(1, Math.max(0, s));
    nearest = Math.min(nearest, distance({ borrower: from.borrower + t * db, lender: from.lender + t * dl }, point));
  }
  return nearest;
}

export function distance(a: UtilityPoint, b: UtilityPoint): number {
  return Math.hypot(a.borrower - b.borrower, a.lender - b.lender);
}
