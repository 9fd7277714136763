/**
 * Property-based tests over generated borrower–lender pairs (issue 5, "Done when"). Pairs come from the same
 * generator as the tournament, driven by fast-check seeds, with an independent check of each party's limits
 * computed here from the criteria text rather than from the engine's own setup.
 */
import fc from 'fast-check';
import type { Criteria, LoanTerms } from '@pf/events';
import { describe, expect, it } from 'vitest';
import { readCriteria } from '../criteria/read-criteria';
import { createRng } from '../rng';
import { generatePair, type GeneratedPair } from '../testing/generate-pair';
import { DEFAULT_NEGOTIATION_SETTINGS } from './next-move';
import { hasZoneOfAgreement } from './pareto';
import { runNegotiation } from './run-negotiation';
import { DEFAULT_POLICY } from './setup';
import type { Side } from './terms-space';
import { utility } from './utility';

const RUNS = 1500;
const pairSeeds = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const pairOf = (seed: number): GeneratedPair => generatePair(createRng(seed));

/** Terms inside what a party's criteria text and its lending policy allow (no limit where unreadable). */
function insideLimits(criteria: Criteria | null, side: Side, propertyValue: number, terms: LoanTerms): boolean {
  const read = readCriteria(criteria);
  const within = (value: number, range: { min: number | null; max: number | null }) =>
    (range.min === null || value >= range.min - 1e-9) && (range.max === null || value <= range.max + 1e-9);
  const policy = DEFAULT_POLICY[side];
  return (
    within(propertyValue, read.propertyValue) &&
    within(terms.interestRate, read.interestRate) &&
    within(terms.termYears, read.termYears) &&
    within(terms.loanAmount, { min: propertyValue * policy.ltv.lo, max: propertyValue * policy.ltv.hi }) &&
    within(terms.arrangementFee, { min: propertyValue * policy.feeShare.lo, max: propertyValue * policy.feeShare.hi })
  );
}

describe('negotiation properties over generated pairs', () => {
  it('never agrees outside either party’s limits or below either reservation value', () => {
    fc.assert(
      fc.property(pairSeeds, fc.integer(), (pairSeed, seed) => {
        const pair = pairOf(pairSeed);
        const result = runNegotiation(pair.borrower, pair.lender, DEFAULT_NEGOTIATION_SETTINGS, seed);
        if (!result.terms) return;
        const value = result.setup.propertyValue;
        expect(insideLimits(pair.borrower.criteria, 'borrower', value, result.terms)).toBe(true);
        expect(insideLimits(pair.lender.criteria, 'lender', value, result.terms)).toBe(true);
        expect(utility(result.setup.borrower, result.terms)).toBeGreaterThanOrEqual(result.setup.borrower.reservation - 1e-9);
        expect(utility(result.setup.lender, result.terms)).toBeGreaterThanOrEqual(result.setup.lender.reservation - 1e-9);
        expect(result.rounds).toBeLessThanOrEqual(DEFAULT_NEGOTIATION_SETTINGS.deadlineRounds);
      }),
      { numRuns: RUNS, seed: 5 },
    );
  });

  it('never agrees when the pair has no zone of agreement, and gives the same result for the same seed', () => {
    fc.assert(
      fc.property(pairSeeds, fc.integer(), (pairSeed, seed) => {
        const pair = pairOf(pairSeed);
        const result = runNegotiation(pair.borrower, pair.lender, DEFAULT_NEGOTIATION_SETTINGS, seed);
        if (!hasZoneOfAgreement(result.setup)) expect(result.outcome).toBe('no_agreement');
        const again = runNegotiation(pair.borrower, pair.lender, DEFAULT_NEGOTIATION_SETTINGS, seed);
        expect(again.events).toEqual(result.events);
      }),
      { numRuns: RUNS, seed: 6 },
    );
  });

  it('agrees in at least 95% of pairs that have a zone of agreement', () => {
    const pairs = fc.sample(pairSeeds, { numRuns: 4000, seed: 7 }).map(pairOf);
    const results = pairs.map((pair, index) => runNegotiation(pair.borrower, pair.lender, DEFAULT_NEGOTIATION_SETTINGS, index));
    const withZone = results.filter((result) => hasZoneOfAgreement(result.setup));
    const agreed = withZone.filter((result) => result.outcome === 'agreed').length;
    expect(withZone.length).toBeGreaterThanOrEqual(1000);
    expect(agreed / withZone.length).toBeGreaterThanOrEqual(0.95);
  });

  it('has pairs with and without a zone of agreement, so the properties above are not vacuous', () => {
    const setups = fc.sample(pairSeeds, { numRuns: 500, seed: 8 }).map((seed) => {
      const pair = pairOf(seed);
      return runNegotiation(pair.borrower, pair.lender).setup;
    });
    const zones = setups.filter(hasZoneOfAgreement).length;
    expect(zones).toBeGreaterThan(100);
    expect(setups.length - zones).toBeGreaterThan(100);
  });
});
