import { describe, expect, it } from 'vitest';
import { borrowerNeeds, productRange, type BorrowerNeeds, type ProductRange } from '@pf/events';
import { emptyRange, needsForm, profileIssue, rangeForm, toNeeds, toRange, withErcYears } from './profile-form';

// Furness Building Society's 5 Year Fixed at 4.59% (£999 fee, 85% LTV, ERCs 5, 5, 4, 3, 2%, MVR 8.39%).
const range: ProductRange = {
  procurationFeePercent: 0.3,
  maxAgeAtTermEnd: 70,
  products: [
    {
      id: 'five-year',
      name: '5 Year Fixed',
      type: 'fixed',
      purposes: ['purchase', 'remortgage'],
      initialPeriodMonths: 60,
      rates: [{ maxLtvPercent: 85, ratePercent: 4.59 }],
      reversionRatePercent: 8.39,
      fee: { kind: 'pounds', pounds: 999 },
      ercPercentByYear: [5, 5, 4, 3, 2],
      minLoanPounds: 20_000,
      maxLoanPounds: 1_000_000,
      discretion: { rateReductionPercent: 0.1, feeReductionPounds: 500, cashbackPounds: 0 },
    },
  ],
};
const needs: BorrowerNeeds = {
  propertyValue: 295_000,
  loanAmount: 236_000,
  termYears: 30,
  ageYears: 31,
  purpose: 'purchase',
  repaymentType: 'repayment',
  fee: 'paid',
  maxFeePounds: 1_000,
  annualIncome: 58_000,
  monthlyCommitments: 250,
};

describe('the agent form’s products and needs', () => {
  it('shows a recorded range and needs in its boxes and sends them back unchanged', () => {
    expect(toRange(rangeForm(range))).toEqual(range);
    expect(toNeeds(needsForm(needs))).toEqual(needs);
  });

  it('sends what the boxes say for the shared schema to judge, naming where a problem is', () => {
    const form = emptyRange();
    const parsed = productRange.safeParse(toRange(form));
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => profileIssue({ ...issue, path: ['products', ...issue.path] }))).toContain(
      'products 1, name: Product name is required',
    );
    expect(borrowerNeeds.safeParse(toNeeds({ ...needsForm(needs), loanAmount: '£236k' })).success).toBe(false);
  });

  it('keeps one ERC box per year of the initial period', () => {
    const product = rangeForm(range).products[0]!;
    expect(withErcYears(product, '2').ercPercentByYear).toEqual(['5', '5']);
    expect(withErcYears(product, '6').ercPercentByYear).toEqual(['5', '5', '4', '3', '2', '']);
  });
});
