import type { BorrowerNeeds, Discretion, Product, ProductRange } from '@pf/events';

/**
 * The demo lenders' product ranges, each modelled on a public UK rate sheet (docs/behaviour/products.md, "The demo
 * ranges", names each sheet and its date). The lenders' names are made up; their rates, fees, ERCs and limits are the
 * sheets'. What no sheet publishes (how far a lender's agent may price a case) is the platform's own setting, named so.
 */
const DISCRETION: Discretion = {
  rateReductionPercent: 0.15,
  lowLtvPercent: 60,
  largeLoanPounds: 500_000,
  feeReductionPounds: 0,
  cashbackPounds: 0,
};

const fixed2 = (
  id: string,
  name: string,
  rates: Product['rates'],
  fee: number,
  premium: number,
  purposes: Product['purposes'],
): Product => ({
  id,
  name,
  type: 'fixed',
  purposes,
  initialPeriodMonths: 24,
  rates,
  reversionRatePercent: 7.5,
  fee: { kind: 'pounds', pounds: fee },
  feeFreePremiumPercent: premium,
  ercPercentByYear: [3, 2],
  minLoanPounds: 25_000,
  maxLoanPounds: 1_000_000,
  discretion: { ...DISCRETION, feeReductionPounds: fee, cashbackPounds: 350 },
});

/** NatWest Intermediary Solutions, core range, 2 year fixed rate purchase, effective 2 June 2023 (£995 fee; £0 fee about 0.28 points above). */
const NORTHGATE: ProductRange = {
  procurationFeePercent: 0.35,
  maxAgeAtTermEnd: 75,
  products: [
    fixed2(
      'ng-2yr-fix',
      '2 Year Fixed',
      [
        { maxLtvPercent: 60, ratePercent: 5.11 },
        { maxLtvPercent: 75, ratePercent: 5.11 },
        { maxLtvPercent: 80, ratePercent: 5.16 },
        { maxLtvPercent: 85, ratePercent: 5.21 },
        { maxLtvPercent: 90, ratePercent: 5.36 },
      ],
      995,
      0.28,
      ['purchase', 'remortgage'],
    ),
    {
      // Bank of Ireland UK's 5 year fixed of 8 January 2018: 2.9% to 75% LTV, 3.59% to 85%, no fee, ERCs 4% to the
      // second year, 3% to the fourth, 2% in the fifth, reverting to Bank Rate + 3.99 points (4.49% then).
      id: 'ng-5yr-fix',
      name: '5 Year Fixed',
      type: 'fixed',
      purposes: ['purchase', 'remortgage'],
      initialPeriodMonths: 60,
      rates: [
        { maxLtvPercent: 75, ratePercent: 2.9 },
        { maxLtvPercent: 85, ratePercent: 3.59 },
      ],
      reversionRatePercent: 4.49,
      fee: { kind: 'pounds', pounds: 0 },
      ercPercentByYear: [4, 4, 3, 3, 2],
      minLoanPounds: 25_000,
      maxLoanPounds: 1_000_000,
      discretion: { ...DISCRETION, feeReductionPounds: 0, cashbackPounds: 0 },
    },
  ],
};

/** Furness Building Society's 5 Year Fixed at 4.59% (£999 fee, 85% LTV, £20,000 to £1,000,000, ERCs 5, 5, 4, 3, 2%, MVR 8.39%). */
const PENNINE: ProductRange = {
  procurationFeePercent: 0.3,
  maxAgeAtTermEnd: 70,
  products: [
    {
      id: 'pm-5yr-fix',
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
      discretion: { ...DISCRETION, rateReductionPercent: 0.1, feeReductionPounds: 500 },
    },
  ],
};

/**
 * Nationwide's 2 year remortgage trackers of 25 March 2020 (Bank Rate then 0.25%: margins 1.19 to 1.79 points with a
 * £999 fee, 0.40 to 0.55 points more with none), beside NatWest's 2 year fixed of 2 June 2023 as above.
 */
const CAPITAL: ProductRange = {
  procurationFeePercent: 0.4,
  maxAgeAtTermEnd: 75,
  products: [
    {
      id: 'cc-2yr-tracker',
      name: '2 Year Tracker',
      type: 'tracker',
      purposes: ['purchase', 'remortgage'],
      initialPeriodMonths: 24,
      rates: [
        { maxLtvPercent: 60, ratePercent: 1.19 },
        { maxLtvPercent: 75, ratePercent: 1.24 },
        { maxLtvPercent: 85, ratePercent: 1.64 },
      ],
      reversionRatePercent: 7.5,
      fee: { kind: 'pounds', pounds: 999 },
      feeFreePremiumPercent: 0.4,
      ercPercentByYear: [0, 0],
      minLoanPounds: 25_000,
      maxLoanPounds: 1_500_000,
      discretion: { ...DISCRETION, feeReductionPounds: 999, cashbackPounds: 250 },
    },
    fixed2(
      'cc-2yr-fix',
      '2 Year Fixed',
      [
        { maxLtvPercent: 60, ratePercent: 5.11 },
        { maxLtvPercent: 75, ratePercent: 5.11 },
        { maxLtvPercent: 85, ratePercent: 5.21 },
      ],
      995,
      0.28,
      ['purchase', 'remortgage', 'buy-to-let'],
    ),
  ],
};

/**
 * Hank Zarihs' buy-to-let rates guide of 15 January 2024 (Bank Rate 5.25%): 2 year fixed 6.04, 6.19, 6.34% at 55, 65,
 * 75% LTV with a 2% fee, reverting to Bank Rate + 4.99 points (8.99% at the setting's 4%), ERCs 2% and 2%, £50,000 to
 * £1,000,000; the procuration fee Accord pays on buy-to-let (0.50%, TBMC's table).
 */
const HARBOUR: ProductRange = {
  procurationFeePercent: 0.5,
  maxAgeAtTermEnd: 85,
  products: [
    {
      id: 'hs-btl-2yr-fix',
      name: 'Buy-to-Let 2 Year Fixed',
      type: 'fixed',
      purposes: ['buy-to-let', 'remortgage', 'purchase'],
      initialPeriodMonths: 24,
      rates: [
        { maxLtvPercent: 55, ratePercent: 6.04 },
        { maxLtvPercent: 65, ratePercent: 6.19 },
        { maxLtvPercent: 75, ratePercent: 6.34 },
      ],
      reversionRatePercent: 8.99,
      fee: { kind: 'percent', percent: 2, minimumPounds: 1_995 },
      ercPercentByYear: [2, 2],
      minLoanPounds: 50_000,
      maxLoanPounds: 1_000_000,
      discretion: { ...DISCRETION, rateReductionPercent: 0.25, feeReductionPounds: 0, cashbackPounds: 0 },
    },
  ],
};

export const DEMO_RANGES: Readonly<Record<string, ProductRange>> = {
  northgate: NORTHGATE,
  pennine: PENNINE,
  capital: CAPITAL,
  harbour: HARBOUR,
};

/** The demo borrowers' needs, as their descriptions and criteria say; ages are the fact-find's. */
export const DEMO_NEEDS: Readonly<Record<string, BorrowerNeeds>> = {
  amelia: {
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
  },
  oliver: {
    propertyValue: 560_000,
    loanAmount: 392_000,
    termYears: 20,
    ageYears: 47,
    purpose: 'buy-to-let',
    repaymentType: 'interest-only',
    fee: 'added',
    annualIncome: 95_000,
    monthlyCommitments: 0,
    expectedMonthlyRent: 2_600,
  },
  priya: {
    propertyValue: 330_000,
    loanAmount: 240_000,
    termYears: 22,
    ageYears: 44,
    purpose: 'remortgage',
    repaymentType: 'repayment',
    preferredInitialPeriodMonths: 60,
    fee: 'added',
    annualIncome: 70_000,
    monthlyCommitments: 400,
  },
};
