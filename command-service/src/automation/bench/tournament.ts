/**
 * A tournament over generated borrower–lender pairs: how often the agents agree, how fast, and how good their
 * deals are against the Pareto frontier and the Nash point. `measureNegotiationsPerSecond` is the entry point
 * for the benchmark suite (issue 7).
 */
import { DEFAULT_NEGOTIATION_SETTINGS, type NegotiationSettings } from '../negotiation/next-move';
import { distance, distanceToFrontier, nashPoint, paretoFrontier } from '../negotiation/pareto';
import { runNegotiation } from '../negotiation/run-negotiation';
import { utility } from '../negotiation/utility';
import { createRng } from '../rng';
import { generatePair } from '../testing/generate-pair';

export interface TournamentOptions {
  pairs: number;
  seed: number;
  settings?: NegotiationSettings;
  /** Milliseconds; injected so the measuring can be tested and the core stays clock-free. */
  now?: () => number;
}

export interface TournamentReport {
  pairs: number;
  pairsWithZone: number;
  agreements: number;
  agreementRate: number;
  agreementRateWithZone: number;
  /** Agreements reached without a zone of agreement: must be 0. */
  agreementsWithoutZone: number;
  medianRounds: number;
  meanDistanceToPareto: number;
  meanDistanceToNash: number;
  negotiationsPerSecond: number;
}

export function runTournament(options: TournamentOptions): TournamentReport {
  const now = options.now ?? (() => performance.now());
  const settings = options.settings ?? DEFAULT_NEGOTIATION_SETTINGS;
  const rng = createRng(options.seed);
  const pairs = Array.from({ length: options.pairs }, () => generatePair(rng));
  const started = now();
  const results = pairs.map((pair, index) => runNegotiation(pair.borrower, pair.lender, settings, options.seed + index));
  const elapsedMs = now() - started;

  let pairsWithZone = 0;
  let agreementsWithZone = 0;
  let agreementsWithoutZone = 0;
  const paretoDistances: number[] = [];
  const nashDistances: number[] = [];
  for (const result of results) {
    const nash = nashPoint(result.setup);
    if (nash) pairsWithZone += 1;
    if (!result.terms) continue;
    if (!nash) {
      agreementsWithoutZone += 1;
      continue;
    }
    agreementsWithZone += 1;
    const outcome = { borrower: utility(result.setup.borrower, result.terms), lender: utility(result.setup.lender, result.terms) };
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
    medianRounds: median(results.map((result) => result.rounds)),
    meanDistanceToPareto: mean(paretoDistances),
    meanDistanceToNash: mean(nashDistances),
    negotiationsPerSecond: elapsedMs > 0 ? (results.length / elapsedMs) * 1000 : Number.POSITIVE_INFINITY,
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
