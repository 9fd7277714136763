/**
 * Time-dependent concession (Faratin et al. 1998): the share of the way from one's best utility to one's floor
 * conceded by time t in [0, 1] is t^(1/beta). Boulware (beta < 1) holds firm until near the deadline, Conceder
 * (beta > 1) gives ground early, linear in between.
 */
import type { ConcessionStrategy } from '@pf/events';

export const BETA: Record<ConcessionStrategy, number> = { boulware: 0.25, linear: 1, conceder: 2.5 };

export function conceded(strategy: ConcessionStrategy, t: number): number {
  const time = Math.min(1, Math.max(0, t));
  return time ** (1 / BETA[strategy]);
}

/** Negotiation time of an offer in `round` (0-based): 0 at the first offer, 1 at the last before the deadline. */
export function timeOf(round: number, deadlineRounds: number): number {
  return deadlineRounds <= 1 ? 1 : Math.min(1, round / (deadlineRounds - 1));
}

export function targetUtility(
  strategy: ConcessionStrategy,
  bounds: { best: number; floor: number },
  round: number,
  deadlineRounds: number,
): number {
  return bounds.best - (bounds.best - bounds.floor) * conceded(strategy, timeOf(round, deadlineRounds));
}
