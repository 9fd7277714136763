/**
 * How well a borrower and a lender fit, 0 to 100, from the overlap of their property value, rate and term
 * ranges, with a verdict per criterion as broker sourcing tools show per lender: meets (the ranges overlap),
 * near (a small gap) or fails. Each criterion scores 75..100 when it meets (more for a larger shared share of
 * the narrower range), up to 50 when near, 0 when it fails; the score is their mean. So one failing criterion
 * keeps a pair below the default threshold of 70, while a near miss can still be matched and negotiated.
 */
import type { Criteria, MatchExplanation } from '@pf/events';
import { readCriteria, type Range } from '../criteria/read-criteria';
import { formatPounds, formatRate, formatYears } from '../words/format';

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
  propertyValue: formatPounds,
  interestRate: formatRate,
  termYears: formatYears,
};

export interface MatchScore {
  score: number;
  explanation: MatchExplanation;
}

export function scoreMatch(borrower: Criteria | null, lender: Criteria | null): MatchScore {
  const a = readCriteria(borrower);
  const b = readCriteria(lender);
  const parts = (['propertyValue', 'interestRate', 'termYears'] as const).map((criterion) =>
    scoreCriterion(criterion, a[criterion], b[criterion]),
  );
  const score = Math.round(parts.reduce((sum, part) => sum + part.score, 0) / parts.length);
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
    return { criterion: label, verdict: 'meets' as const, score: 75 + 25 * coverage, detail: `Both accept ${span(lo, hi, show)}` };
  }
  const gap = lo - hi;
  const tolerance = NEAR[criterion](lo);
  const apart = `${span(first.min, first.max, show)} against ${span(second.min, second.max, show)}`;
  if (gap <= tolerance) {
    return { criterion: label, verdict: 'near' as const, score: 50 * (1 - gap / tolerance), detail: `Close: ${apart}` };
  }
  return { criterion: label, verdict: 'fails' as const, score: 0, detail: `No overlap: ${apart}` };
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
