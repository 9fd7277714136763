import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { presentValue } from './aprc';
import { illustrate, trueCostOverInitialPeriod } from './illustration';
import { representativeExample } from './representative-example';

describe('illustrate', () => {
  it('charges a twelfth of the annual rate monthly and pays the annuity of each period on the balance then owed', () => {
    // £120,000 at 6% over 10 years: the annuity 120000 × 0.005 / (1 − 1.005^−120) = 1332.2460…
    const figures = illustrate({ loan: 120_000, termMonths: 120, rates: [{ ratePercent: 6 }] });
    expect(figures.payments).toEqual([{ months: 120, amount: 1332.25 }]);
    expect(figures.totalAmountPayable).toBe(159_870);
    expect(figures.totalCostOfCredit).toBe(39_870);
    // No fees: the APRC is the effective annual rate of 0.5% a month, 1.005^12 − 1 = 6.1678%.
    expect(figures.aprc).toBe(6.2);
    expect(figures.aprcUnrounded).toBeCloseTo(6.1678, 3);
  });

  it('repays nothing until the end of an interest-only mortgage, then the whole loan', () => {
    const figures = illustrate({ loan: 100_000, termMonths: 120, rates: [{ ratePercent: 6 }], repayment: 'interest-only' });
    expect(figures.payments).toEqual([{ months: 120, amount: 500 }]);
    expect(figures.finalCapitalRepayment).toBe(100_000);
    expect(figures.totalAmountPayable).toBe(160_000);
    expect(figures.aprc).toBe(6.2);
  });

  it('names the first problem with the input', () => {
    expect(() => illustrate({ loan: 100_000, termMonths: 300, rates: [{ ratePercent: 3 }, { ratePercent: 5 }] })).toThrow(
      'rate 1 of 2 needs a number of months: only the last runs to the end of the term',
    );
    expect(() => illustrate({ loan: 100_000, termMonths: 24, rates: [{ ratePercent: 3, months: 24 }, { ratePercent: 5 }] })).toThrow(
      'the rates before the last cover 24 months',
    );
    expect(() => illustrate({ loan: 0, termMonths: 300, rates: [{ ratePercent: 3 }] })).toThrow('the loan must be more than £0');
  });
});

describe('fees by when they are paid, and the rate after a fixed period', () => {
  const base = { loan: 100_000, termMonths: 120, rates: [{ ratePercent: 6 }] };

  it('counts a fee at the end in the total, and discounts it from the last month in the APRC', () => {
    const atStart = illustrate({ ...base, fees: [500] });
    const atEnd = illustrate({ ...base, feesAtEnd: [500] });
    expect(atEnd.payments).toEqual(atStart.payments);
    expect(atEnd.totalAmountPayable).toBe(atStart.totalAmountPayable);
    expect(atEnd.cashFlows.advanced).toBe(100_000);
    expect(atEnd.cashFlows.monthly.at(-1)).toBeCloseTo((atStart.payments[0]?.amount ?? 0) + 500, 6);
    // £500 ten years later costs the borrower less than £500 today.
    expect(atEnd.aprcUnrounded).toBeLessThan(atStart.aprcUnrounded);
  });

  it('charges interest on a fee added to the loan', () => {
    const added = illustrate({ ...base, feesAddedToLoan: [1_000] });
    expect(added.payments).toEqual(illustrate({ ...base, loan: 101_000 }).payments);
    expect(added.cashFlows.advanced).toBe(100_000);
    expect(added.totalFees).toBe(1_000);
  });

  it('takes a later rate below a fixed initial rate at the fixed rate in the APRC only', () => {
    const input = { loan: 100_000, termMonths: 300, rates: [{ ratePercent: 5, months: 60 }, { ratePercent: 4 }] };
    const asGiven = illustrate(input);
    const floored = illustrate({ ...input, initialRateFixed: true });
    expect(floored.payments).toEqual(asGiven.payments);
    expect(floored.aprc).toBe(illustrate({ ...input, rates: [{ ratePercent: 5 }] }).aprc);
    expect(floored.aprcUnrounded).toBeGreaterThan(asGiven.aprcUnrounded);
  });
});

describe('trueCostOverInitialPeriod', () => {
  it('adds the fees to the first period’s payments and takes off the cashback', () => {
    const input = {
      loan: 125_000,
      termMonths: 300,
      rates: [{ ratePercent: 3.5, months: 24 }, { ratePercent: 5.5 }],
      fees: [999],
      cashback: 250,
    };
    const [first] = illustrate(input).payments;
    expect(first).toEqual({ months: 24, amount: 625.78 });
    expect(trueCostOverInitialPeriod(input)).toBe(24 * 625.78 + 999 - 250);
  });
});

describe('representativeExample', () => {
  it('reads as a lender’s representative example, with the figures illustrate gives', () => {
    expect(
      representativeExample(
        { loan: 125_000, termMonths: 300, rates: [{ ratePercent: 3.5, months: 24 }, { ratePercent: 5.5 }], fees: [999] },
        'Hadley Bank',
      ),
    ).toBe(
      'Representative example: a repayment mortgage of £125,000 from Hadley Bank payable over 25 years, initially at 3.5% for 2 years and ' +
        'then at 5.5% for the remaining 23 years, would require 24 monthly payments of £625.78 and 276 monthly payments of £757.66. ' +
        'The total amount payable would be £225,131.88, made up of the loan amount plus interest (£99,132.88) and fees (£999.00). ' +
        'The overall cost for comparison is 5.3% APRC representative.',
    );
  });
});

describe('the MCOB 10A.2.2R equation', () => {
  const inputs = fc.record({
    loan: fc.integer({ min: 10_000, max: 2_000_000 }),
    termYears: fc.integer({ min: 5, max: 40 }),
    initialYears: fc.integer({ min: 0, max: 10 }),
    initialRate: fc.double({ min: 0.5, max: 9, noNaN: true }),
    laterRate: fc.double({ min: 0.5, max: 12, noNaN: true }),
    fee: fc.integer({ min: 0, max: 3_000 }),
    feeAdded: fc.integer({ min: 0, max: 3_000 }),
    feeAtEnd: fc.integer({ min: 0, max: 300 }),
    cashback: fc.integer({ min: 0, max: 2_000 }),
    interestOnly: fc.boolean(),
    initialRateFixed: fc.boolean(),
  });

  it('holds at every APRC computed: the payments discounted at it are worth the credit less the charges at the start', () => {
    fc.assert(
      fc.property(inputs, (draw) => {
        const termMonths = draw.termYears * 12;
        const initialMonths = Math.min(draw.initialYears * 12, termMonths - 12);
        const rates =
          initialMonths > 0
            ? [{ ratePercent: draw.initialRate, months: initialMonths }, { ratePercent: draw.laterRate }]
            : [{ ratePercent: draw.laterRate }];
        const figures = illustrate({
          loan: draw.loan,
          termMonths,
          rates,
          fees: [draw.fee],
          feesAddedToLoan: [draw.feeAdded],
          feesAtEnd: [draw.feeAtEnd],
          cashback: draw.cashback,
          initialRateFixed: draw.initialRateFixed,
          repayment: draw.interestOnly ? 'interest-only' : 'repayment',
        });
        const advanced = draw.loan - draw.fee + draw.cashback;
        expect(figures.cashFlows.advanced).toBe(advanced);
        expect(figures.cashFlows.monthly).toHaveLength(termMonths);
        // The flows are the payments shown, unless a later rate below the fixed one is taken at it.
        const floored = draw.initialRateFixed && initialMonths > 0 && draw.laterRate < draw.initialRate;
        const paid = figures.cashFlows.monthly.reduce((a, b) => a + b, 0) + draw.fee;
        if (!floored) expect(paid).toBeCloseTo(figures.totalAmountPayable, 2);
        // Within a penny of the credit advanced, at the unrounded X.
        expect(Math.abs(presentValue(figures.cashFlows.monthly, figures.aprcUnrounded / 100) - advanced)).toBeLessThan(0.01);
        // And the published figure is that X to one decimal place, half up.
        expect(Math.abs(figures.aprc - figures.aprcUnrounded)).toBeLessThanOrEqual(0.05 + 1e-9);
      }),
      { numRuns: 300 },
    );
  });
});
