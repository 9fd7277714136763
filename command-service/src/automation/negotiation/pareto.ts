/**
 * Yardsticks for outcomes: the Pareto frontier of the two utilities over the agreement space, the Nash point
 * (the frontier point maximising the product of gains over the reservation values), and whether any zone of
 * agreement exists. Exact for linear additive utilities: the frontier is traced by handing issues from the
 * borrower's best end to the lender's in order of the lender's gain per unit of the borrower's loss.
 */
import { agreementSpace, type NegotiationSetup } from './setup';
import { ISSUES } from './terms-space';
import { bestTerms, utility } from './utility';

export interface UtilityPoint {
  borrower: number;
  lender: number;
}

/** Frontier vertices from the borrower's best to the lender's best; null when there is no agreement space. */
export function paretoFrontier(setup: NegotiationSetup): UtilityPoint[] | null {
  const space = agreementSpace(setup);
  if (!space) return null;
  const start = bestTerms('borrower', space);
  const end = bestTerms('lender', space);
  const moves = ISSUES.map((issue) => {
    const to = { ...start, [issue]: end[issue] };
    return {
      loss: utility(setup.borrower, start) - utility(setup.borrower, to),
      gain: utility(setup.lender, to) - utility(setup.lender, start),
    };
  }).sort((a, b) => ratio(b) - ratio(a));
  const points: UtilityPoint[] = [{ borrower: utility(setup.borrower, start), lender: utility(setup.lender, start) }];
  for (const move of moves) {
    const previous = points.at(-1) as UtilityPoint;
    points.push({ borrower: previous.borrower - move.loss, lender: previous.lender + move.gain });
  }
  return points;
}

/** The agreement maximising (borrower gain over reservation) × (lender gain); null when no zone of agreement. */
export function nashPoint(setup: NegotiationSetup): UtilityPoint | null {
  const frontier = paretoFrontier(setup);
  if (!frontier) return null;
  const rb = setup.borrower.reservation;
  const rl = setup.lender.reservation;
  let best: { point: UtilityPoint; product: number } | null = null;
  for (const [from, to] of segments(frontier)) {
    const db = to.borrower - from.borrower;
    const dl = to.lender - from.lender;
    // (b0 + s·db − rb)(l0 + s·dl − rl) is a concave quadratic in s when db ≤ 0 ≤ dl: its peak or an end.
    const a = db * dl;
    const peak = a !== 0 ? -((from.borrower - rb) * dl + (from.lender - rl) * db) / (2 * a) : 0;
    for (const s of [0, 1, Math.min(1, Math.max(0, peak))]) {
      const point = { borrower: from.borrower + s * db, lender: from.lender + s * dl };
      if (point.borrower < rb - 1e-9 || point.lender < rl - 1e-9) continue;
      const product = (point.borrower - rb) * (point.lender - rl);
      if (!best || product > best.product) best = { point, product };
    }
  }
  return best?.point ?? null;
}

export function hasZoneOfAgreement(setup: NegotiationSetup): boolean {
  return nashPoint(setup) !== null;
}

/** Euclidean distance in utility space from an outcome to the nearest point of the frontier. */
export function distanceToFrontier(frontier: UtilityPoint[], point: UtilityPoint): number {
  if (frontier.length === 1) return distance(frontier[0] as UtilityPoint, point);
  let nearest = Number.POSITIVE_INFINITY;
  for (const [from, to] of segments(frontier)) {
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

function ratio(move: { loss: number; gain: number }): number {
  return move.loss > 0 ? move.gain / move.loss : Number.POSITIVE_INFINITY;
}

function segments(points: UtilityPoint[]): Array<[UtilityPoint, UtilityPoint]> {
  return points.slice(1).map((to, index) => [points[index] as UtilityPoint, to]);
}
