/**
 * Time-dependent concession (Faratin, Sierra and Jennings 1998): the share of the way conceded by time t in [0, 1]
 * is t^(1/beta). Boulware (beta < 1) holds firm longer, Conceder (beta > 1) gives ground early, linear in between.
 * Each side's time runs from its first offer (0) to its last before the deadline (1), so by then it has gone all the
 * way to its limit: the lender to its full discretion, the borrower to its reservation.
 */
import type { ConcessionStrategy } from '@pf/events';

const BETA: Record<ConcessionStrategy, number> = { boulware: 0.5, linear: 1, conceder: 2 };

export function conceded(strategy: ConcessionStrategy, t: number): number {
  const time = Math.min(1, Math.max(0, t));
  return time ** (1 / BETA[strategy]);
}

/** A side's time at `round` (offers made so far): 0 at its first offer, 1 at its last before `deadlineRounds`. */
export function sideTime(round: number, firstRound: number, deadlineRounds: number): number {
  const lastRound = deadlineRounds - 1 - ((deadlineRounds - 1 - firstRound) % 2);
  return lastRound > firstRound ? (round - firstRound) / (lastRound - firstRound) : 1;
}
