/**
 * A tournament over generated pairs (borrower needs × lender range, testing/generate-pair.ts): how often the agents
 * agree where a zone of agreement exists, that no agreement lies outside the lender's discretion or the borrower's
 * fee cap or trades the loan or the term, how fast they agree, and how good their deals are against the Pareto
 * frontier and the Nash point of the bespoke-pricing space (yardsticks.ts). `measureNegotiationsPerSecond` is the
 * entry point for the benchmark suite (bench/README.md).
 */
import { DEFAULT_NEGOTIATION_SETTINGS, type NegotiationSettings } from '../negotiation/next-move';
import { worth } from '../negotiation/offer-strategy';
import { outsideLimits } from '../negotiation/pricing';
import { runNegotiation, type NegotiationResult } from '../negotiation/run-negotiation';
import { createRng } from '../rng';
import { generatePair } from '../testing/generate-pair';
import { distance, distanceToFrontier, yardsticks } from './yardsticks';

export interface TournamentOptions {
  pairs: number;
  seed: number;
  settings?: NegotiationSettings;
  /** Milliseconds; injected so the measuring can be tested and the core stays clock-free. */
  now?: () => number;
}

export interface PairingFigures {
  pairs: number;
  /** Pairs with a case to price (a line of the lender's that can be offered for these needs). */
  pairsPriced: number;
  pairsWithZone: number;
  agreements: number;
  agreementRate: number;
  agreementRateWithZone: number;
  /** Agreements reached without a zone of agreement: must be 0. */
  agreementsWithoutZone: number;
  /** Agreements outside the discretion, over the fee cap, or with another loan or term: must be 0. */
  agreementsOutsideLimits: number;
  /** Lender offers outside the discretion, and offers by either side above the fee cap or with another loan or term: must be 0. */
  offersOutsideLimits: number;
  /** Borrower offers asking the lender to match a cheaper line, below its discretion (only where no zone exists or elsewhere is cheaper). */
  asksBeyondDiscretion: number;
  /** Offers per negotiation, over the pairs that have a zone of agreement. */
  medianRoundsWithZone: number;
  medianRoundsToAgreement: number;
  meanDistanceToPareto: number;
  meanDistanceToNash: number;
  /** Mean share of the lender's discretion given away in agreements (0 list price, 1 all of it). */
  meanDiscretionGiven: number;
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
  const pairs = Array.from({ length: options.pairs }, () => generatePair(rng, 1));
  const started = now();
  const results = pairs.map((pair) => runNegotiation(pair.borrower, pair.lender, settings));
  const elapsedMs = now() - started;
  const byPairing: Record<string, NegotiationResult[]> = {};
  for (const result of results) (byPairing[`${result.setup.borrower.strategy} × ${result.setup.lender.strategy}`] ??= []).push(result);
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
  let pairsPriced = 0;
  let pairsWithZone = 0;
  let agreementsWithZone = 0;
  let agreementsWithoutZone = 0;
  let agreementsOutsideLimits = 0;
  let offersOutsideLimits = 0;
  let asksBeyondDiscretion = 0;
  const pareto: number[] = [];
  const nash: number[] = [];
  const given: number[] = [];
  const roundsToAgreement: number[] = [];
  const roundsWithZone: number[] = [];
  for (const result of results) {
    const { priced } = result.setup;
    if (priced) pairsPriced += 1;
    for (const event of result.events) {
      if (event.type !== 'OfferMade') continue;
      const outside = priced ? outsideLimits(priced, event.data.terms, event.data.product ?? null) : 'no case';
      const byBorrower = event.data.fromAgentId === result.setup.borrower.agentId;
      if (byBorrower && outside === "the rate is below the lender's discretion") asksBeyondDiscretion += 1;
      else if (outside !== null) offersOutsideLimits += 1;
    }
    const sticks = yardsticks(result.setup);
    if (sticks) {
      pairsWithZone += 1;
      roundsWithZone.push(result.rounds);
    }
    if (!result.terms) continue;
    roundsToAgreement.push(result.rounds);
    if (!priced || outsideLimits(priced, result.terms, result.product) !== null) agreementsOutsideLimits += 1;
    if (!sticks || !priced) {
      agreementsWithoutZone += 1;
      continue;
    }
    agreementsWithZone += 1;
    const value = worth(priced, { terms: result.terms, product: result.product });
    const outcome = sticks.utilityOf(value.trueCost, value.given);
    pareto.push(distanceToFrontier(sticks.frontier, outcome));
    nash.push(distance(sticks.nash, outcome));
    given.push(1 - outcome.lender);
  }
  const agreements = agreementsWithZone + agreementsWithoutZone;
  return {
    pairs: results.length,
    pairsPriced,
    pairsWithZone,
    agreements,
    agreementRate: ratio(agreements, results.length),
    agreementRateWithZone: ratio(agreementsWithZone, pairsWithZone),
    agreementsWithoutZone,
    agreementsOutsideLimits,
    offersOutsideLimits,
    asksBeyondDiscretion,
    medianRoundsWithZone: median(roundsWithZone),
    medianRoundsToAgreement: median(roundsToAgreement),
    meanDistanceToPareto: mean(pareto),
    meanDistanceToNash: mean(nash),
    meanDiscretionGiven: mean(given),
  };
}

/** negotiations_per_s for the benchmark suite: whole negotiations (setup, sourcing, offers, decisions) per second. */
export function measureNegotiationsPerSecond(pairs = 500, seed = 1, now?: () => number): number {
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
