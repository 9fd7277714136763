/**
 * The hard rules of UK mortgage lending the matcher explains a match by (docs/behaviour/matching.md), as pure functions of both
 * parties' criteria and the property value: the borrower's loan need (price minus deposit, or the amount it
 * names) is a floor unless it names a range; a lender caps the loan by its maximum loan-to-value, by an income
 * multiple (residential), and by interest cover on the expected rent at a stressed rate (buy-to-let); it lends
 * only on the property types and in the regions it names; and it prices by LTV band (a lower rate at a lower
 * LTV). Sourcing and the negotiation use its income multiple and interest cover as the lenders' affordability rules.
 */
import type { PropertyType, ReadCriteria, Region } from '@pf/events';

interface Interval {
  lo: number;
  hi: number;
}

/** Loans are needed in whole thousands of pounds. */
const LOAN_STEP = 1000;

export interface LendingRules {
  /** Residential: the loan is at most this many times the borrower's stated annual income. */
  incomeMultiple: number;
  /** Buy-to-let: yearly rent must cover this share of a year's interest at the stressed rate (1.25 = 125%). */
  interestCover: number;
  /** Percent a year, the rate the interest cover test assumes. */
  stressedRate: number;
  /** Added to the lender's rates by LTV band, lowest band first: { upTo: share of value, premium: points }. */
  ltvBands: ReadonlyArray<{ upTo: number; premium: number }>;
}

export const DEFAULT_LENDING_RULES: LendingRules = {
  incomeMultiple: 4.5,
  interestCover: 1.25,
  stressedRate: 5.5,
  ltvBands: [
    { upTo: 0.6, premium: 0 },
    { upTo: 0.75, premium: 0.15 },
    { upTo: 0.8, premium: 0.3 },
    { upTo: 0.85, premium: 0.5 },
    { upTo: 0.9, premium: 0.75 },
    { upTo: 1, premium: 1.1 },
  ],
};

/** What the borrower applies for, as a lender sees it. */
export interface Application {
  propertyType: PropertyType;
  region: Region | null;
  /** The loan it needs in pounds (rounded up to a whole thousand), or null when it names neither loan nor deposit. */
  need: Interval | null;
  annualIncome: number | null;
  monthlyRent: number | null;
}

export function application(borrower: ReadCriteria, propertyValue: number): Application {
  return {
    propertyType: borrower.propertyTypes?.[0] ?? 'residential',
    region: borrower.regions?.[0] ?? null,
    need: loanNeed(borrower, propertyValue),
    annualIncome: borrower.annualIncome,
    monthlyRent: borrower.expectedRentMonthly,
  };
}

/**
 * The loan the borrower needs: the amount it names (a range when it names both ends), else the price minus its
 * deposit. A single amount is a floor and, as nobody borrows more than they need, also the ceiling.
 */
function loanNeed(borrower: ReadCriteria, propertyValue: number): Interval | null {
  const { loanAmount, loanAmountIsRange, deposit } = borrower;
  let need: Interval | null = null;
  if (loanAmount.min !== null || loanAmount.max !== null) {
    const lo = loanAmount.min ?? 0;
    need = { lo, hi: loanAmountIsRange ? (loanAmount.max ?? propertyValue) : lo };
  } else if (deposit) {
    const amount = 'pounds' in deposit ? propertyValue - deposit.pounds : propertyValue * (1 - deposit.share);
    need = { lo: amount, hi: amount };
  }
  if (!need) return null;
  // Offers are in whole thousands: round the floor up, so the borrower never receives less than it needs.
  const lo = Math.max(0, Math.ceil(need.lo / LOAN_STEP - 1e-9) * LOAN_STEP);
  return { lo, hi: Math.max(lo, Math.floor(need.hi / LOAN_STEP + 1e-9) * LOAN_STEP) };
}

export interface LoanCap {
  /** The most this lender lends on this application, in pounds (0 when it does not lend on it at all). */
  max: number;
  ltvCap: number;
  incomeCap: number | null;
  rentCap: number | null;
  typeRefused: boolean;
  regionRefused: boolean;
}

export function lenderLoanCap(
  lender: ReadCriteria,
  applied: Application,
  propertyValue: number,
  defaultMaxLtv: number,
  rules: LendingRules,
): LoanCap {
  const ltvCap = (lender.maxLtv ?? defaultMaxLtv) * propertyValue;
  const incomeCap =
    applied.propertyType === 'residential' && applied.annualIncome !== null ? applied.annualIncome * rules.incomeMultiple : null;
  const rentCap =
    applied.propertyType === 'buy-to-let' && applied.monthlyRent !== null
      ? (applied.monthlyRent * 12) / (rules.interestCover * (rules.stressedRate / 100))
      : null;
  const typeRefused = lender.propertyTypes !== null && !lender.propertyTypes.includes(applied.propertyType);
  const regionRefused = lender.regions !== null && applied.region !== null && !lender.regions.includes(applied.region);
  const caps = [ltvCap, incomeCap ?? Infinity, rentCap ?? Infinity, lender.loanAmount.max ?? Infinity];
  const max = typeRefused || regionRefused ? 0 : Math.min(...caps);
  return { max, ltvCap, incomeCap, rentCap, typeRefused, regionRefused };
}

/** The lender's rate premium, in percentage points, for a loan-to-value share. */
export function ltvPremium(ltv: number, rules: LendingRules): number {
  for (const band of rules.ltvBands) if (ltv <= band.upTo + 1e-9) return band.premium;
  return rules.ltvBands.at(-1)?.premium ?? 0;
}

export function ltvBandLabel(ltv: number, rules: LendingRules): string {
  let from = 0;
  for (const band of rules.ltvBands) {
    if (ltv <= band.upTo + 1e-9) return `${Math.round(from * 100)}–${Math.round(band.upTo * 100)}%`;
    from = band.upTo;
  }
  return `above ${Math.round(from * 100)}%`;
}
