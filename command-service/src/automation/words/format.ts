/**
 * British formatting of the engine's numbers (the one money style, events/src/format): £ with thousands separators,
 * rates to two places, years, and an offer quoted with its product and its regulated figures from `offerFigures`
 * (docs/behaviour/negotiation.md, "What the agents say").
 */
import { offerFigures, pounds, poundsAndPence, type LoanTerms, type OfferedProduct } from '@pf/events';

const percent = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatRate(value: number): string {
  return `${percent.format(value)}%`;
}

export function formatYears(value: number): string {
  return value === 1 ? '1 year' : `${value} years`;
}

/**
 * "Two Year Fix, a 2-year fixed rate, on £187,000 over 25 years: 4.35%, fee £999, £500 cashback, £1,023.45 a month,
 * APRC 6.7%": an offer as every message quotes it.
 */
export function describeQuote(terms: LoanTerms, product: OfferedProduct): string {
  const figures = offerFigures(terms, product);
  const years = product.initialPeriodMonths / 12;
  const kind = product.type === 'fixed' ? 'fixed rate' : 'tracker';
  const fee =
    terms.arrangementFee === 0 ? 'no fee' : `fee ${pounds(terms.arrangementFee)}${product.feeAddedToLoan ? ' added to the loan' : ''}`;
  const cashback = product.cashbackPounds > 0 ? `, ${pounds(product.cashbackPounds)} cashback` : '';
  return (
    `${product.name}, a ${years}-year ${kind}, on ${pounds(terms.loanAmount)} over ${formatYears(terms.termYears)}: ` +
    `${formatRate(terms.interestRate)}, ${fee}${cashback}, ${poundsAndPence(figures.monthlyPayment)} a month, APRC ${figures.aprc.toFixed(1)}%`
  );
}
