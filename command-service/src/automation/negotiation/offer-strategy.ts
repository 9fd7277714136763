/**
 * What a side offers next: terms worth its target utility for this round, found by starting from the other
 * side's last offer and winning back ground on the issues where a step gains it most for the least the other
 * side is estimated to lose (a trade-off move in the spirit of Faratin, Sierra and Jennings 2002). The other
 * side's weights are guessed from its own offers: an issue it hardly moves on matters to it.
 *
 * The target (concession.ts) falls from the side's best towards its aspiration, the utility it would get at
 * the Nash point as it estimates it (its own utility against the other side's public limits and guessed
 * weights), so both sides head for the same fair point whatever their concession strategy, and only below it
 * near the deadline.
 */
import type { LoanTerms } from '@pf/events';
import type { Rng } from '../rng';
import { targetUtility } from './concession';
import { nashPoint } from './pareto';
import { agreementSpace, type NegotiationSetup, type NegotiatorProfile } from './setup';
import {
  clamp,
  DIRECTION,
  isEmpty,
  ISSUES,
  mapIssues,
  onStep,
  otherSide,
  snapFavouring,
  snapInward,
  STEP,
  type Issue,
  type Limits,
  type PerIssue,
  type Side,
} from './terms-space';
import { bestTerms, utility, utilityBounds } from './utility';

/** Upward jitter on the target, as a share of the side's concession range, so offers are not mechanical. */
const JITTER = 0.02;

export function proposeOffer(
  setup: NegotiationSetup,
  side: Side,
  round: number,
  deadlineRounds: number,
  opponentOffers: readonly LoanTerms[],
  rng: Rng,
  /** Utility this offer must at least give its side (the best offer it holds elsewhere). */
  atLeast = Number.NEGATIVE_INFINITY,
): LoanTerms {
  const me = setup[side];
  const opponent = setup[otherSide(side)];
  const common = agreementSpace(setup);
  // A side never proposes terms worth less to it than its reservation: if the common space holds none, it
  // states its own best terms, which the other side cannot accept.
  const space = common && utilityBounds(me, common).best >= me.reservation - 1e-9 ? common : ownSpace(me);
  const bounds = utilityBounds(me, space);
  const aspiration = space === common ? estimatedNashUtility(setup, side, opponentOffers, space) : bounds.floor;
  const target = Math.min(
    bounds.best,
    Math.max(
      atLeast,
      targetUtility(me.strategy, { ...bounds, aspiration }, round, deadlineRounds) + rng() * JITTER * (bounds.best - bounds.floor),
    ),
  );
  const last = opponentOffers.at(-1);
  const offer: LoanTerms = last ? mapIssues((issue) => clamp(last[issue], space[issue])) : bestTerms(side, space);
  let current = utility(me, offer);
  const estimated = estimateWeights(opponentOffers, space);
  const order = [...ISSUES].sort((a, b) => tradeRatio(b, me, opponent, estimated, space) - tradeRatio(a, me, opponent, estimated, space));
  for (const issue of order) {
    if (current >= target) break;
    const best = DIRECTION[side][issue] > 0 ? space[issue].hi : space[issue].lo;
    const perUnit = me.weights[issue] / span(me.limits, issue);
    const gainAvailable = perUnit * Math.abs(best - offer[issue]);
    if (gainAvailable <= 0) continue;
    const share = Math.min(1, (target - current) / gainAvailable);
    offer[issue] += (best - offer[issue]) * share;
    current += gainAvailable * share;
  }
  return mapIssues((issue) => snapFavouring(issue, offer[issue], side, space[issue]));
}

/**
 * This side's utility at the Nash point of its own utility and its model of the other side's: the other side's
 * limits are public (its criteria), its weights are guessed from its offers and its reservation taken as 0.
 */
function estimatedNashUtility(setup: NegotiationSetup, side: Side, opponentOffers: readonly LoanTerms[], space: Limits): number {
  const other = otherSide(side);
  const guessed = estimateWeights(opponentOffers, space);
  const total = ISSUES.reduce((sum, issue) => sum + guessed[issue], 0);
  const model: NegotiatorProfile = {
    ...setup[other],
    weights: mapIssues((issue) => guessed[issue] / total),
    reservation: 0,
  };
  const nash = nashPoint({ ...setup, [other]: model });
  return nash ? nash[side] : utilityBounds(setup[side], space).floor;
}

/** Own limits in offer steps; if a range is narrower than one step, the nearest stated value to its middle. */
function ownSpace(profile: NegotiatorProfile): Limits {
  return mapIssues((issue) => {
    const snapped = snapInward(issue, profile.limits[issue]);
    if (!isEmpty(snapped)) return snapped;
    const middle = onStep(issue, Math.round((profile.limits[issue].lo + profile.limits[issue].hi) / 2 / STEP[issue]));
    return { lo: middle, hi: middle };
  });
}

/** Utility won per unit of utility the other side is estimated to lose, moving this issue across the space. */
function tradeRatio(issue: Issue, me: NegotiatorProfile, opponent: NegotiatorProfile, estimated: PerIssue<number>, space: Limits): number {
  const width = space[issue].hi - space[issue].lo;
  const gain = (me.weights[issue] * width) / span(me.limits, issue);
  const loss = (estimated[issue] * width) / span(opponent.limits, issue);
  return loss > 0 ? gain / loss : Number.POSITIVE_INFINITY;
}

/** Guessed weights of the other side: how little it has moved on each issue since its first offer. */
function estimateWeights(offers: readonly LoanTerms[], space: Limits): PerIssue<number> {
  const first = offers[0];
  const last = offers.at(-1);
  return mapIssues((issue) => {
    if (!first || !last) return 1;
    const width = space[issue].hi - space[issue].lo;
    const moved = width > 0 ? Math.abs(last[issue] - first[issue]) / width : 0;
    return Math.max(0.05, 1 - moved);
  });
}

function span(limits: Limits, issue: Issue): number {
  return Math.max(limits[issue].hi - limits[issue].lo, STEP[issue]);
}
