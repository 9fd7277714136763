/**
 * A tournament over generated borrower–lender pairs: how often the agents agree, how fast, and how good their
 * deals are against the Pareto frontier and the Nash point. `measureNegotiationsPerSecond` is the entry point
 * for the benchmark suite (bench/README.md).
 */
import { DEFAULT_NEGOTIATION_SETTINGS, type NegotiationSettings } from '../negotiation/next-move';
import { distance, distanceToFrontier, nashPoint, paretoFrontier } from '../negotiation/pareto';
import { runNegotiation, type NegotiationResult } from '../negotiation/run-negotiation';
import { withinLimits } from '../negotiation/terms-space';
import { utility } from '../negotiation/utility';
import { createRng } from '../rng';
import { generatePair } from '../testing/generate-pair';

export interface TournamentOptions {
  pairs: number;
  seed: number;
  settings?: NegotiationSettings;
  /** False: pairs with the spec's six criteria only, as the first tournament generated them. */
  lendingCriteria?: boolean;
  /** Milliseconds; injected so the measuring can be tested and the core stays clock-free. */
  now?: () => number;
}

export interface PairingFigures {
  pairs: number;
  pairsWithZone: number;
  agreements: number;
  agreementRate: number;
  agreementRateWithZone: number;
  /** Agreements reached without a zone of agreement: must be 0. */
  agreementsWithoutZone: number;
  /** Agreements breaking a party's limits (loan need, lender caps, ranges): must be 0. */
  agreementsOutsideLimits: number;
  /** Offers per negotiation, over all pairs. */
  medianRounds: number;
  /** Offers per negotiation, over the pairs that have a zone of agreement (the headline: see bench/README). */
  medianRoundsWithZone: number;
  /** Offers per negotiation that ended in agreement. */
  medianRoundsToAgreement: number;
  meanDistanceToPareto: number;
  meanDistanceToNash: number;
}

export interface TournamentReport extends PairingFigures {
  /** The same figures per strategy pairing, keyed "borrower strategy × lender strategy". */
  byPairing: Record<string, PairingFigures>;
  negotiationsPerSecond: number;
  /** Offers made per second by the engine alone (every negotiation's rounds over the same time). */
  movesPerSecond: number;
}

export function runTournament(options: TournamentOptions): TournamentReport {
  const now = options.now ?? (() => performance.now());
  const settings = options.settings ?? DEFAULT_NEGOTIATION_SETTINGS;
  const rng = createRng(options.seed);
  const pairs = Array.from({ length: options.pairs }, () => generatePair(rng, 1, { lendingCriteria: options.lendingCriteria ?? true }));
  const started = now();
  const results = pairs.map((pair, index) => runNegotiation(pair.borrower, pair.lender, settings, options.seed + index));
  const elapsedMs = now() - started;

  const byPairing: Record<string, NegotiationResult[]> = {};
  for (const result of results) {
    (byPairing[`${result.setup.borrower.strategy} × ${result.setup.lender.strategy}`] ??= []).push(result);
  }
  return {
    ...figures(results),
    byPairing: Object.fromEntries(
      Object.keys(byPairing)
        .sort()
        .map((key) => [key, figures(byPairing[key] ?? [])]),
    ),
    negotiationsPerSecond: elapsedMs > 0 ? (results.length / elapsedMs) * 1000 : Number.POSITIVE_INFINITY,
    movesPerSecond: elapsedMs > 0 ? (results.reduce((sum, result) => sum + result.rounds, 0) / elapsedMs) * 1000 : Number.POSITIVE_INFINITY,
  };
}

function figures(results: readonly NegotiationResult[]): PairingFigures {
  let pairsWithZone = 0;
  let agreementsWithZone = 0;
  let agreementsWithoutZone = 0;
  let agreementsOutsideLimits = 0;
  const paretoDistances: number[] = [];
  const nashDistances: number[] = [];
  const roundsToAgreement: number[] = [];
  const roundsWithZone: number[] = [];
  for (const result of results) {
    const nash = nashPoint(result.setup);
    if (nash) {
      pairsWithZone += 1;
      roundsWithZone.push(result.rounds);
    }
    if (!result.terms) continue;
    roundsToAgreement.push(result.rounds);
    const { borrower, lender } = result.setup;
    if (!withinLimits(borrower.limits, result.terms) || !withinLimits(lender.limits, result.terms)) agreementsOutsideLimits += 1;
    if (!nash) {
      agreementsWithoutZone += 1;
      continue;
    }
    agreementsWithZone += 1;
    const outcome = { borrower: utility(borrower, result.terms), lender: utility(lender, result.terms) };
    paretoDistances.push(distanceToFrontier(paretoFrontier(result.setup) ?? [nash], outcome));
    nashDistances.push(distance(nash, outcome));
  }
  const agreements = agreementsWithZone + agreementsWithoutZone;
  return {
    pairs: results.length,
    pairsWithZone,
    agreements,
    agreementRate: ratio(agreements, results.length),
    agreementRateWithZone: ratio(agreementsWithZone, pairsWithZone),
    agreementsWithoutZone,
    agreementsOutsideLimits,
    medianRounds: median(results.map((result) => result.rounds)),
    medianRoundsWithZone: median(roundsWithZone),
    medianRoundsToAgreement: median(roundsToAgreement),
    meanDistanceToPareto: mean(paretoDistances),
    meanDistanceToNash: mean(nashDistances),
  };
}

/** negotiations_per_s for the benchmark suite: whole negotiations (setup, offers, decisions) per second. */
export function measureNegotiationsPerSecond(pairs = 2000, seed = 1, now?: () => number): number {
  return runTournament({ pairs, seed, ...(now ? { now } : {}) }).negotiationsPerSecond;
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function mean(values: number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? Number.NaN : part / whole;
}
