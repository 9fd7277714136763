import { describe, expect, it } from 'vitest';
import { readCriteria } from '../read-criteria';
import { illustrate, trueCostOverInitialPeriod } from '../regulated';
import type { BorrowerNeeds } from './needs';
import type { Product, ProductRange } from './product';
import { illustrationFor, shortlist, source, sourcingResultOf, type SourcingLender } from './sourcing';

const RULES = { incomeMultiple: 4.5, interestCover: 1.25, stressedRate: 5.5 };

// NatWest Intermediary Solutions, 2 year fixed rate purchase, 2 June 2023 (£995 fee, £0 fee about 0.28 points above).
const natwest: Product = {
  id: 'two-year',
  name: '2 Year Fixed',
  type: 'fixed',
  purposes: ['purchase', 'remortgage'],
  initialPeriodMonths: 24,
  rates: [
    { maxLtvPercent: 60, ratePercent: 5.11 },
    { maxLtvPercent: 75, ratePercent: 5.11 },
    { maxLtvPercent: 80, ratePercent: 5.16 },
    { maxLtvPercent: 85, ratePercent: 5.21 },
    { maxLtvPercent: 90, ratePercent: 5.36 },
  ],
  reversionRatePercent: 7.5,
  fee: { kind: 'pounds', pounds: 995 },
  feeFreePremiumPercent: 0.28,
  ercPercentByYear: [3, 2],
  minLoanPounds: 25_000,
  maxLoanPounds: 1_000_000,
  discretion: { rateReductionPercent: 0.15, lowLtvPercent: 60, feeReductionPounds: 995, cashbackPounds: 0 },
};
// Furness Building Society's 5 Year Fixed at 4.59% (£999 fee, 85% LTV, MVR 8.39%).
const furness: Product = {
  ...natwest,
  id: 'five-year',
  name: '5 Year Fixed',
  initialPeriodMonths: 60,
  rates: [{ maxLtvPercent: 85, ratePercent: 4.59 }],
  reversionRatePercent: 8.39,
  fee: { kind: 'pounds', pounds: 999 },
  ercPercentByYear: [5, 5, 4, 3, 2],
  discretion: { rateReductionPercent: 0.1, feeReductionPounds: 500, cashbackPounds: 0 },
};
const { feeFreePremiumPercent: _none, ...furnessNoFeeFree } = furness;

const lender = (agentId: number, name: string, products: Product[], criteria = {}): SourcingLender => ({
  agentId,
  name,
  range: { products, procurationFeePercent: 0.35, maxAgeAtTermEnd: 75 } satisfies ProductRange,
  criteria: readCriteria(criteria),
});

const amelia: BorrowerNeeds = {
  propertyValue: 295_000,
  loanAmount: 236_000,
  termYears: 30,
  ageYears: 31,
  purpose: 'purchase',
  repaymentType: 'repayment',
  preferredInitialPeriodMonths: 24,
  fee: 'paid',
  maxFeePounds: 1_000,
  annualIncome: 58_000,
  monthlyCommitments: 250,
};

describe('sourcing', () => {
  const lenders = [
    lender(1, 'Northgate', [natwest]),
    lender(2, 'Pennine', [furnessNoFeeFree]),
    lender(3, 'Capital', [natwest], { region: 'London' }),
  ];
  const sourced = source(amelia, readCriteria({ region: 'Leeds' }), lenders, 4, RULES);

  it('quotes each line that can be offered with the one module’s figures, ranked by the true cost over the initial period', () => {
    const offered = sourced.filter((line) => line.quote !== null);
    // Two years of £1,331.11 (5.44%, no fee) cost £10 less than two of £1,290.08 and the £995 fee; five years, more.
    expect(offered.map((line) => [line.lenderName, line.productName, line.quote?.trueCostOverInitialPeriod])).toEqual([
      ['Northgate', '2 Year Fixed (no fee)', 31_946.64],
      ['Northgate', '2 Year Fixed', 31_956.92],
      ['Pennine', '5 Year Fixed', 73_504.8],
    ]);
    const northgate = offered.find((line) => line.lenderName === 'Northgate' && !line.feeFree)!;
    const illustration = illustrationFor(amelia, natwest, 5.16, 995);
    expect(illustration).toEqual({
      loan: 236_000,
      termMonths: 360,
      rates: [{ ratePercent: 5.16, months: 24 }, { ratePercent: 7.5 }],
      fees: [995],
      repayment: 'repayment',
    });
    const figures = illustrate(illustration);
    expect(northgate.quote).toEqual({
      initialRatePercent: 5.16,
      reversionRatePercent: 7.5,
      fee: 995,
      feeAdded: false,
      monthlyPayment: figures.payments[0]!.amount,
      trueCostOverInitialPeriod: trueCostOverInitialPeriod(illustration),
      aprc: figures.aprc,
      procurationFee: 826,
    });
    expect(offered.find((line) => line.feeFree)?.quote).toMatchObject({ initialRatePercent: 5.44, fee: 0 });
  });

  it('gives each line its verdict and reasons: a preferred period missed warns, a region refused fails', () => {
    const pennine = sourced.find((line) => line.lenderName === 'Pennine')!;
    expect(pennine.verdict).toBe('warn');
    expect(pennine.reasons.filter((r) => r.verdict !== 'pass')).toEqual([
      { criterion: 'Initial period', verdict: 'warn', detail: '5 years; the borrower prefers 2' },
    ]);
    expect(pennine.reasons.find((r) => r.criterion === 'LTV band')?.detail).toBe("80% LTV is within the product's maximum of 85%");
    const capital = sourced.filter((line) => line.lenderName === 'Capital');
    expect(capital.map((line) => [line.verdict, line.quote])).toEqual([
      ['fail', null],
      ['fail', null],
    ]);
    expect(capital[0]!.reasons.filter((r) => r.verdict === 'fail')).toEqual([
      { criterion: 'Region', verdict: 'fail', detail: 'The lender does not lend in Leeds' },
    ]);
  });

  it('fails a loan above the product’s LTV, loan size, the lender’s age at term end or affordability', () => {
    const stretched = { ...amelia, loanAmount: 270_000, ageYears: 50, annualIncome: 40_000 };
    const [line] = source(stretched, readCriteria(null), [lender(1, 'Pennine', [furnessNoFeeFree])], 4, RULES);
    expect(line!.reasons.filter((r) => r.verdict === 'fail').map((r) => r.detail)).toEqual([
      "91.53% LTV is above the product's maximum of 85%",
      "80 at the end of the term, past the lender's 75",
      '£270,000 is above 4.5 times income after commitments (£166,500)',
    ]);
  });

  it('shortlists the cheapest few lenders, one line each', () => {
    expect(shortlist(sourced, 1).map((line) => line.lenderName)).toEqual([sourced[0]!.lenderName]);
    const result = sourcingResultOf(sourced, 3);
    expect(result.shortlist.sort()).toEqual([1, 2]);
    expect(result.totalLines).toBe(5);
  });
});
