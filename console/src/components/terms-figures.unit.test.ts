import { describe, expect, it } from 'vitest';
import { offerFigures, poundsAndPence } from '@pf/events';
import { termsRows } from './terms-figures';
import { FURNESS_FIVE_YEAR_FIX } from '@pf/events/testing';

// Furness Building Society's 5-year fix (docs/behaviour/regulated-figures.md): £150,000 over 23 years at 4.59% fixed for
// 5 years, then 8.39%, the £999 fee added to the loan: 60 payments of £886.73, then 216 of £1,170.05.
const product = FURNESS_FIVE_YEAR_FIX;
const terms = { loanAmount: 150_000, termYears: 23, interestRate: 4.59, arrangementFee: 999 };

describe('terms as a person reads them', () => {
  it('names the product, its initial period, the rate and its reversion, the fee added to the loan and the served figures', () => {
    // The figures as the read side serves them (the test computes them as the server does; the screen computes none).
    const served = offerFigures(terms, product);
    const rows = Object.fromEntries(termsRows(terms, product, served).map((row) => [row.label, row.value]));
    expect(rows).toEqual({
      Product: '5 Year Fixed Rate (fixed rate)',
      'Initial period': '5 years',
      Rate: '4.59% for 5 years, then 8.39%',
      Loan: '£150,000',
      Term: '23 years',
      Fee: '£999, added to the loan',
      Cashback: 'None',
      'Monthly payment': '£886.73, then £1,170.05',
      APRC: `${served.aprc.toFixed(1)}%`,
    });
  });

  it('gives an offer from before products one rate, its payment and APRC, and shows a figure not served as not known', () => {
    const old = { loanAmount: 200_000, termYears: 25, interestRate: 4.5, arrangementFee: 999 };
    const served = offerFigures(old);
    expect(termsRows(old, null, served).map((row) => `${row.label}: ${row.value}`)).toEqual([
      'Rate: 4.50%',
      'Loan: £200,000',
      'Term: 25 years',
      'Fee: £999',
      `Monthly payment: ${poundsAndPence(served.monthlyPayment)}`,
      `APRC: ${served.aprc.toFixed(1)}%`,
    ]);
    expect(termsRows(old, null, null).slice(-2)).toEqual([
      { label: 'Monthly payment', value: '–' },
      { label: 'APRC', value: '–' },
    ]);
  });
});
