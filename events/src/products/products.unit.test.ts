import { describe, expect, it } from 'vitest';
import { createAgentInput } from '../agent';
import { borrowerNeeds } from './needs';
import { feeFor, initialRateFor, productRange, type Product, type ProductRange } from './product';
import { needsOf, productRangeOf } from './upgrade';

// NatWest Intermediary Solutions, 2 year fixed rate purchase, 2 June 2023: 60% LTV 5.11% with £995, 5.39% with £0.
const twoYearFix: Product = {
  id: 'two-year',
  name: '2 Year Fixed',
  type: 'fixed',
  purposes: ['purchase'],
  initialPeriodMonths: 24,
  rates: [
    { maxLtvPercent: 60, ratePercent: 5.11 },
    { maxLtvPercent: 80, ratePercent: 5.16 },
  ],
  reversionRatePercent: 7.5,
  fee: { kind: 'pounds', pounds: 995 },
  feeFreePremiumPercent: 0.28,
  ercPercentByYear: [3, 2],
  minLoanPounds: 25_000,
  maxLoanPounds: 1_000_000,
  discretion: { rateReductionPercent: 0.15, lowLtvPercent: 60, feeReductionPounds: 995, cashbackPounds: 0 },
};
const range: ProductRange = { products: [twoYearFix], procurationFeePercent: 0.35, maxAgeAtTermEnd: 75 };

describe('a product range', () => {
  it('prices by LTV band, with the fee-free alternative above it and trackers over Bank Rate', () => {
    expect(initialRateFor(twoYearFix, 55, 4)).toBe(5.11);
    expect(initialRateFor(twoYearFix, 60.01, 4)).toBe(5.16);
    expect(initialRateFor(twoYearFix, 55, 4, true)).toBe(5.39);
    expect(initialRateFor(twoYearFix, 80.5, 4)).toBeNull();
    expect(initialRateFor({ ...twoYearFix, type: 'tracker', rates: [{ maxLtvPercent: 60, ratePercent: 1.19 }] }, 50, 4)).toBe(5.19);
  });

  it('charges a percentage fee on large loans, never below its floor', () => {
    const percentFee: Product = { ...twoYearFix, fee: { kind: 'percent', percent: 2, minimumPounds: 1_995 } };
    expect(feeFor(percentFee, 392_000)).toBe(7_840);
    expect(feeFor(percentFee, 50_000)).toBe(1_995);
    expect(feeFor(twoYearFix, 392_000)).toBe(995);
  });

  it('refuses bands that do not rise, ERCs that do not cover the initial period, and a product id used twice', () => {
    const bad = productRange.safeParse({
      ...range,
      products: [{ ...twoYearFix, rates: [...twoYearFix.rates].reverse(), ercPercentByYear: [3] }, twoYearFix],
    });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(messages).toEqual([
      'products.0.rates.1.maxLtvPercent: LTV bands must rise: each maxLtvPercent above the one before',
      'products.0.ercPercentByYear: Give one ERC per year of the initial period (2)',
      'products.1.id: Product id two-year is used twice',
    ]);
    expect(productRange.safeParse(range).success).toBe(true);
  });

  it('is a lender’s only: the create form refuses products on a borrower', () => {
    const asBorrower = createAgentInput.safeParse({ name: 'B', type: 'borrower', products: range });
    expect(asBorrower.error?.issues.map((issue) => issue.message)).toEqual(['Only a lender has products']);
    expect(createAgentInput.safeParse({ name: 'L', type: 'lender', products: range }).success).toBe(true);
  });
});

describe('a borrower’s needs', () => {
  const needs = {
    propertyValue: 295_000,
    loanAmount: 236_000,
    termYears: 30,
    ageYears: 31,
    purpose: 'purchase',
    repaymentType: 'repayment',
    fee: 'paid',
    annualIncome: 58_000,
    monthlyCommitments: 250,
  } as const;

  it('bounds the term by the borrower’s age at its end, and asks a buy-to-let for its rent', () => {
    expect(borrowerNeeds.safeParse(needs).success).toBe(true);
    const old = borrowerNeeds.safeParse({ ...needs, ageYears: 60 });
    expect(old.error?.issues.map((issue) => issue.message)).toEqual(['The term must end by age 85 (60 + 30 is 90)']);
    const rentless = borrowerNeeds.safeParse({ ...needs, purpose: 'buy-to-let' });
    expect(rentless.error?.issues.map((issue) => issue.message)).toEqual(['A buy-to-let needs its expected monthly rent']);
    expect(borrowerNeeds.safeParse({ ...needs, loanAmount: 300_000 }).success).toBe(false);
  });
});

describe('older agents, upgraded in one place', () => {
  it('keeps what was recorded', () => {
    expect(productRangeOf({ type: 'lender', criteria: null, products: range })).toBe(range);
  });

  it('reads a lender’s free-text criteria as one product at its asking rate, with the range to its floor as discretion', () => {
    const upgraded = productRangeOf({
      type: 'lender',
      criteria: {
        interestRateMin: '3.9%',
        interestRateMax: '5.4%',
        maxLtv: '90%',
        propertyType: 'residential',
        propertyValueMax: '£600,000',
      },
    });
    expect(upgraded?.products).toEqual([
      expect.objectContaining({
        rates: [{ maxLtvPercent: 90, ratePercent: 5.4 }],
        purposes: ['purchase', 'remortgage'],
        fee: { kind: 'pounds', pounds: 0 },
        maxLoanPounds: 540_000,
        discretion: { rateReductionPercent: 1, feeReductionPounds: 0, cashbackPounds: 0 },
      }),
    ]);
    expect(productRange.safeParse(upgraded).success).toBe(true);
    expect(productRangeOf({ type: 'lender', criteria: { region: 'Leeds' } })).toBeNull();
  });

  it('reads a borrower’s loan and deposit as the price, and its term', () => {
    const upgraded = needsOf({
      type: 'borrower',
      criteria: { loanAmount: '£236,000', deposit: '£59,000', annualIncome: '£58,000', loanTermMin: '25 years', loanTermMax: '35 years' },
    });
    expect(upgraded).toEqual({
      propertyValue: 295_000,
      loanAmount: 236_000,
      termYears: 35,
      purpose: 'purchase',
      repaymentType: 'repayment',
      fee: 'paid',
      monthlyCommitments: 0,
      annualIncome: 58_000,
    });
    expect(borrowerNeeds.safeParse(upgraded).success).toBe(true);
    expect(needsOf({ type: 'borrower', criteria: { region: 'Leeds' } })).toBeNull();
  });
});
