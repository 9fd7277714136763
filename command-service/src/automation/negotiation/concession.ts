/**
 * Time-dependent concession (Faratin et al. 1998): the share of the way conceded by time t in [0, 1] is
 * t^(1/beta). Boulware (beta < 1) holds firm longer, Conceder (beta > 1) gives ground early, linear in between.
 *
 * The way runs in two stages (docs/behaviour/negotiation.md). Until the aspiration round (ASPIRATION_SHARE of the deadline) a side
 * concedes from its best to its aspiration (its estimate of the Nash point), so agreements land early and fair
 * whatever the strategies; after it, only what is left, down to its floor by the last offer, so that a pair whose
 * estimates disagree still finds the zone of agreement before the deadline.
 */
import type { ConcessionStrategy } from '@pf/events';

const BETA: Record<ConcessionStrategy, number> = { boulware: 0.5, linear: 1, conceder: 2 };

/** The share of the offers allowed by which a side has reached its aspiration. */
const ASPIRATION_SHARE = 0.35;

export function conceded(strategy: ConcessionStrategy, t: number): number {
  const time = Math.min(1, Math.max(0, t));
  return time ** (1 / BETA[strategy]);
}

export function targetUtility(
  strategy: ConcessionStrategy,
  bounds: { best: number; floor: number; aspiration?: number },
  round: number,
  deadlineRounds: number,
): number {
  const aspiration = Math.min(bounds.best, Math.max(bounds.floor, bounds.aspiration ?? bounds.floor));
  const turn = Math.max(1, Math.round((deadlineRounds - 1) * ASPIRATION_SHARE));
  if (round <= turn) return bounds.best - (bounds.best - aspiration) * conceded(strategy, round / turn);
  const late = (round - turn) / Math.max(1, deadlineRounds - 1 - turn);
  return aspiration - (aspiration - bounds.floor) * Math.min(1, late);
}
