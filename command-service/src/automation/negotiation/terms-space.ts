/**
 * The space the agents negotiate in: the four issues of a loan (events `LoanTerms`), which way each side wants
 * each one to go, the step an offer is stated in, and intervals of acceptable values ("limits").
 */
import type { LoanTerms } from '@pf/events';

export const ISSUES = ['interestRate', 'termYears', 'loanAmount', 'arrangementFee'] as const;
export type Issue = (typeof ISSUES)[number];
export type Side = 'borrower' | 'lender';
export type PerIssue<T> = Record<Issue, T>;

export interface Interval {
  lo: number;
  hi: number;
}
export type Limits = PerIssue<Interval>;

export function otherSide(side: Side): Side {
  return side === 'borrower' ? 'lender' : 'borrower';
}

/**
 * +1: higher is better for that side. Every issue is opposed: the borrower wants a lower rate, a longer term
 * (smaller monthly payments), a larger loan and a smaller fee; the lender wants the reverse (a shorter term and
 * a lower loan-to-value carry less risk).
 */
export const DIRECTION: Record<Side, PerIssue<1 | -1>> = {
  borrower: { interestRate: -1, termYears: 1, loanAmount: 1, arrangementFee: -1 },
  lender: { interestRate: 1, termYears: -1, loanAmount: -1, arrangementFee: 1 },
};

/** Offers are stated in whole basis points, years, thousands of pounds and fives of pounds. */
export const STEP: PerIssue<number> = { interestRate: 0.01, termYears: 1, loanAmount: 1000, arrangementFee: 5 };

/** What "no limit" means: the plausible market, so that every utility has a finite range. */
export const MARKET = {
  propertyValue: { lo: 25_000, hi: 20_000_000 },
  interestRate: { lo: 0.5, hi: 15 },
  termYears: { lo: 1, hi: 40 },
} as const;

const EPSILON = 1e-9;

export function isEmpty(interval: Interval): boolean {
  return interval.lo > interval.hi + EPSILON;
}

export function intersect(a: Interval, b: Interval): Interval {
  return { lo: Math.max(a.lo, b.lo), hi: Math.min(a.hi, b.hi) };
}

export function clamp(value: number, interval: Interval): number {
  return Math.min(Math.max(value, interval.lo), interval.hi);
}

/** A value as an offer states it: a multiple of the issue's step, without floating-point dust. */
export function onStep(issue: Issue, units: number): number {
  const value = units * STEP[issue];
  return issue === 'interestRate' ? Math.round(value * 100) / 100 : Math.round(value);
}

/** The interval shrunk to the values an offer can state (it may become empty). */
export function snapInward(issue: Issue, interval: Interval): Interval {
  return {
    lo: onStep(issue, Math.ceil(interval.lo / STEP[issue] - EPSILON)),
    hi: onStep(issue, Math.floor(interval.hi / STEP[issue] + EPSILON)),
  };
}

/** Rounds a value to its step in the direction `side` prefers, staying inside `within` (already on steps). */
export function snapFavouring(issue: Issue, value: number, side: Side, within: Interval): number {
  const units = value / STEP[issue];
  const rounded = DIRECTION[side][issue] > 0 ? Math.ceil(units - EPSILON) : Math.floor(units + EPSILON);
  return clamp(onStep(issue, rounded), within);
}

export function withinLimits(limits: Limits, terms: LoanTerms): boolean {
  return ISSUES.every((issue) => {
    const value = terms[issue];
    return Number.isFinite(value) && value >= limits[issue].lo - EPSILON && value <= limits[issue].hi + EPSILON;
  });
}

export function intersectLimits(a: Limits, b: Limits): Limits {
  return mapIssues((issue) => intersect(a[issue], b[issue]));
}

export function mapIssues<T>(fn: (issue: Issue) => T): PerIssue<T> {
  return {
    interestRate: fn('interestRate'),
    termYears: fn('termYears'),
    loanAmount: fn('loanAmount'),
    arrangementFee: fn('arrangementFee'),
  };
}
