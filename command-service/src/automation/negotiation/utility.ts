/**
 * Each side's utility over loan terms: a weighted sum over the issues, each scored 0 (its worst acceptable
 * value) to 1 (its best) across that side's own limits. Linear and additive, as in the automated-negotiation
 * literature (Faratin, Sierra and Jennings 1998), which also makes the Pareto frontier exact to compute.
 */
import type { LoanTerms } from '@pf/events';
import type { NegotiatorProfile } from './setup';
import { DIRECTION, ISSUES, mapIssues, type Issue, type Limits, type Side } from './terms-space';

function issueScore(profile: NegotiatorProfile, issue: Issue, value: number): number {
  const { lo, hi } = profile.limits[issue];
  if (hi - lo <= 0) return 1;
  const share = (value - lo) / (hi - lo);
  return DIRECTION[profile.side][issue] > 0 ? share : 1 - share;
}

export function utility(profile: NegotiatorProfile, terms: LoanTerms): number {
  return ISSUES.reduce((sum, issue) => sum + profile.weights[issue] * issueScore(profile, issue, terms[issue]), 0);
}

/** The corner of `space` that `side` likes best. */
export function bestTerms(side: Side, space: Limits): LoanTerms {
  return mapIssues((issue) => (DIRECTION[side][issue] > 0 ? space[issue].hi : space[issue].lo));
}

function worstTerms(side: Side, space: Limits): LoanTerms {
  return bestTerms(side === 'borrower' ? 'lender' : 'borrower', space);
}

/** The highest utility `profile` can reach in `space`, and the lowest it will go to there. */
export function utilityBounds(profile: NegotiatorProfile, space: Limits): { best: number; floor: number } {
  const best = utility(profile, bestTerms(profile.side, space));
  const worst = utility(profile, worstTerms(profile.side, space));
  return { best, floor: Math.min(best, Math.max(profile.reservation, worst)) };
}
