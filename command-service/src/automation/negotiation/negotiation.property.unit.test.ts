/**
 * Property-based tests over generated borrower–lender pairs (docs/behaviour/negotiation.md). Pairs come from the same
 * generator as the tournament, driven by fast-check seeds, with an independent check of each party's limits
 * computed here from the criteria text rather than from the engine's own setup.
 */
import fc from 'fast-check';
import { readCriteria, type LoanTerms } from '@pf/events';
import { describe, expect, it } from 'vitest';
import { createRng } from '../rng';
import { generatePair, type GeneratedPair } from '../testing/generate-pair';
import { DEFAULT_NEGOTIATION_SETTINGS } from './next-move';
import { hasZoneOfAgreement } from './pareto';
import { runNegotiation } from './run-negotiation';
import { DEFAULT_LENDING_RULES } from './lending-rules';
import { DEFAULT_POLICY } from './setup';
import { utility } from './utility';

const RUNS = 1500;
const pairSeeds = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const pairOf = (seed: number): GeneratedPair => generatePair(createRng(seed));

/**
 * Every lending rule an agreement must keep (docs/behaviour/negotiation.md), restated here from the criteria text (not from the engine's
 * limits): the property value, rate and term ranges; the borrower's need as a floor (price minus deposit, or
 * the amount named; its ceiling too unless a range is named); the lender's maximum LTV (80% unless stated),
 * largest loan, property types and regions, 4.5 times income for residential, 125% interest cover at 5.5% for
 * buy-to-let, and a rate at least its minimum plus the premium of the agreed LTV's band. Returns what broke.
 */
function brokenRules(pair: GeneratedPair, value: number, terms: LoanTerms, rules = DEFAULT_LENDING_RULES): string[] {
  const b = readCriteria(pair.borrower.criteria);
  const l = readCriteria(pair.lender.criteria);
  const broken: string[] = [];
  const check = (ok: boolean, rule: string) => (ok ? undefined : broken.push(rule));
  const within = (x: number, range: { min: number | null; max: number | null }) =>
    (range.min === null || x >= range.min - 1e-9) && (range.max === null || x <= range.max + 1e-9);
  const loan = terms.loanAmount;
  for (const [read, who] of [
    [b, 'borrower'],
    [l, 'lender'],
  ] as const) {
    check(within(value, read.propertyValue), `${who} property value`);
    check(within(terms.interestRate, read.interestRate), `${who} rate`);
    check(within(terms.termYears, read.termYears), `${who} term`);
    const fee = DEFAULT_POLICY[who].feeShare;
    check(terms.arrangementFee >= value * fee.lo - 1e-9 && terms.arrangementFee <= value * fee.hi + 1e-9, `${who} fee`);
  }
  if (b.loanAmount.min !== null || b.loanAmount.max !== null) {
    check(loan >= (b.loanAmount.min ?? 0), 'below the loan the borrower needs');
    if (!b.loanAmountIsRange) check(loan <= Math.ceil((b.loanAmount.min ?? 0) / 1000) * 1000, 'more than the borrower needs');
    else if (b.loanAmount.max !== null) check(loan <= b.loanAmount.max, 'above the borrower’s range');
  } else if (b.deposit) {
    const need = 'pounds' in b.deposit ? value - b.deposit.pounds : value * (1 - b.deposit.share);
    check(loan >= need - 1e-6, 'below price minus deposit');
  } else {
    check(loan >= value * 0.6 - 1e-9 && loan <= value * 0.85 + 1e-9, 'outside the borrower’s policy LTV');
  }
  if (b.maxLtv !== null) check(loan <= b.maxLtv * value + 1e-9, 'above the borrower’s own max LTV');
  check(loan <= (l.maxLtv ?? 0.8) * value + 1e-9, 'above the lender’s max LTV');
  if (l.loanAmount.max !== null) check(loan <= l.loanAmount.max, 'above the lender’s largest loan');
  const type = b.propertyTypes?.[0] ?? 'residential';
  if (l.propertyTypes) check(l.propertyTypes.includes(type), 'a property type the lender does not lend on');
  const region = b.regions?.[0];
  if (l.regions && region) check(l.regions.includes(region), 'outside the lender’s regions');
  if (type === 'residential' && b.annualIncome !== null)
    check(loan <= rules.incomeMultiple * b.annualIncome + 1e-6, 'above the income multiple');
  if (type === 'buy-to-let' && b.expectedRentMonthly !== null) {
    check(
      b.expectedRentMonthly * 12 >= rules.interestCover * loan * (rules.stressedRate / 100) - 1e-6,
      'rent does not cover the stressed interest',
    );
  }
  if (l.interestRate.min !== null) {
    const ltv = loan / value;
    const band = rules.ltvBands.find((candidate) => ltv <= candidate.upTo + 1e-9) ?? rules.ltvBands.at(-1);
    check(terms.interestRate >= l.interestRate.min + (band?.premium ?? 0) - 1e-9, 'priced below the lender’s rate for this LTV band');
  }
  return broken;
}

describe('negotiation properties over generated pairs', () => {
  it('never agrees outside either party’s limits or below either reservation value', () => {
    fc.assert(
      fc.property(pairSeeds, fc.integer(), (pairSeed, seed) => {
        const pair = pairOf(pairSeed);
        const result = runNegotiation(pair.borrower, pair.lender, DEFAULT_NEGOTIATION_SETTINGS, seed);
        if (!result.terms) return;
        expect(brokenRules(pair, result.setup.propertyValue, result.terms)).toEqual([]);
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
    // 7,000 pairs: the lending rules leave a zone in about a fifth of them, and this wants 1,000 such.
    const pairs = fc.sample(pairSeeds, { numRuns: 7000, seed: 7 }).map(pairOf);
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
