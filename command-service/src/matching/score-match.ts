/**
 * How well a borrower and a lender fit, 0 to 100, with a verdict per criterion as broker sourcing tools show per
 * lender (Mortgage Brain's Criteria Brain): pass, warn (pass with a warning) or fail, and the reason in words.
 * The property value, rate and term ranges score 75..100 when they overlap (more for a larger shared share of
 * the narrower range), up to 50 when near, 0 when apart; the lender's rules (lending-criteria.ts) score 100,
 * 50 or 0. The score is their mean, held under 50 when any criterion fails, so a failing pair is never matched
 * at the default threshold of 70, while a near miss can still be matched and negotiated.
 */
import { plural, pounds, ratePercent, readCriteria, type Criteria, type MatchExplanation, type Range } from '@pf/events';
import { DEFAULT_LENDING_RULES, type LendingRules } from '../automation/negotiation/lending-rules';
import { lendingCriteria } from './lending-criteria';

type Criterion = 'propertyValue' | 'interestRate' | 'termYears';

const LABEL: Record<Criterion, string> = {
  propertyValue: 'Property value',
  interestRate: 'Interest rate',
  termYears: 'Loan term',
};

/** The gap still called "near": 10% of the property value, half a percentage point, three years. */
const NEAR: Record<Criterion, (bound: number) => number> = {
  propertyValue: (bound) => bound * 0.1,
  interestRate: () => 0.5,
  termYears: () => 3,
};

const SHOW: Record<Criterion, (value: number) => string> = {
  propertyValue: pounds,
  interestRate: ratePercent,
  termYears: (years: number) => plural(years, 'year'),
};

export interface MatchScore {
  score: number;
  explanation: MatchExplanation;
}

export interface ScoreOptions {
  /** Apply a lender's rules to the borrower's application (not when scoring a broker's fit). */
  lending?: boolean;
  rules?: LendingRules;
}

export function scoreMatch(borrower: Criteria | null, lender: Criteria | null, options: ScoreOptions = {}): MatchScore {
  const a = readCriteria(borrower);
  const b = readCriteria(lender);
  const parts = [
    ...(['propertyValue', 'interestRate', 'termYears'] as const).map((criterion) => scoreCriterion(criterion, a[criterion], b[criterion])),
    ...(options.lending === false ? [] : lendingCriteria(a, b, options.rules ?? DEFAULT_LENDING_RULES)),
  ];
  const mean = Math.round(parts.reduce((sum, part) => sum + part.score, 0) / parts.length);
  const score = parts.some((part) => part.verdict === 'fail') ? Math.min(mean, 49) : mean;
  return { score, explanation: parts.map(({ criterion, verdict, detail }) => ({ criterion, verdict, detail })) };
}

function scoreCriterion(criterion: Criterion, first: Range, second: Range) {
  const lo = Math.max(first.min ?? -Infinity, second.min ?? -Infinity);
  const hi = Math.min(first.max ?? Infinity, second.max ?? Infinity);
  const label = LABEL[criterion];
  const show = SHOW[criterion];
  if (lo <= hi) {
    const narrower = Math.min(width(first), width(second));
    const coverage = !Number.isFinite(narrower) || narrower === 0 ? 1 : (hi - lo) / narrower;
    return { criterion: label, verdict: 'pass' as const, score: 75 + 25 * coverage, detail: `Both accept ${span(lo, hi, show)}` };
  }
  const gap = lo - hi;
  const tolerance = NEAR[criterion](lo);
  const apart = `${span(first.min, first.max, show)} against ${span(second.min, second.max, show)}`;
  if (gap <= tolerance) {
    return { criterion: label, verdict: 'warn' as const, score: 50 * (1 - gap / tolerance), detail: `Close: ${apart}` };
  }
  return { criterion: label, verdict: 'fail' as const, score: 0, detail: `No overlap: ${apart}` };
}

function width(range: Range): number {
  return (range.max ?? Infinity) - (range.min ?? -Infinity);
}

function span(lo: number | null, hi: number | null, show: (value: number) => string): string {
  const hasLo = lo !== null && Number.isFinite(lo);
  const hasHi = hi !== null && Number.isFinite(hi);
  if (hasLo && hasHi) return lo === hi ? show(lo) : `${show(lo)} to ${show(hi)}`;
  if (hasLo) return `${show(lo)} or more`;
  if (hasHi) return `up to ${show(hi)}`;
  return 'any value';
}
