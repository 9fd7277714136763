/**
 * The property a match is about, as the matcher titles and explains it from both parties' free-text criteria
 * (docs/behaviour/matching.md): the price the borrower's loan and deposit add up to, else the middle of what the
 * borrower named (or the lender, or £250,000), moved into the overlap of both ranges when there is one, in whole
 * thousands. The negotiation itself prices the borrower's needs (pricing.ts).
 */
import type { Range, ReadCriteria } from '@pf/events';

/** The plausible market, so that a range left open on one side is still finite. */
const MARKET = { lo: 25_000, hi: 20_000_000 };

/** A lender's maximum loan-to-value when its criteria name none. */
export const DEFAULT_MAX_LTV = 0.8;

interface Interval {
  lo: number;
  hi: number;
}

export function dealPropertyValue(borrower: ReadCriteria, lender: ReadCriteria): number {
  const { loanAmount, loanAmountIsRange, deposit } = borrower;
  const price = deposit && 'pounds' in deposit && loanAmount.min !== null && !loanAmountIsRange ? loanAmount.min + deposit.pounds : null;
  // A price the borrower's own figures fix is the price, whatever range either side named.
  if (price !== null) return price;
  const wanted = preferred(borrower.propertyValue) ?? preferred(lender.propertyValue) ?? 250_000;
  const own = toInterval(borrower.propertyValue);
  const other = toInterval(lender.propertyValue);
  const both = { lo: Math.max(own.lo, other.lo), hi: Math.min(own.hi, other.hi) };
  const within = both.lo > both.hi + 1e-9 ? own : both;
  const inside = Math.min(Math.max(wanted, within.lo), within.hi);
  const thousands = Math.round(inside / 1000) * 1000;
  return thousands >= within.lo && thousands <= within.hi ? thousands : Math.round(inside);
}

function toInterval(range: Range): Interval {
  return { lo: range.min ?? MARKET.lo, hi: range.max ?? MARKET.hi };
}

function preferred(range: Range): number | null {
  if (range.min !== null && range.max !== null) return (range.min + range.max) / 2;
  return range.min ?? range.max;
}
