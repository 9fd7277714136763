/**
 * An offer quoted with its product and its regulated figures from `offerFigures`, in the one money and rate style
 * (events/src/format; docs/behaviour/negotiation.md, "What the agents say").
 */
import { offerFigures, plural, pounds, poundsAndPence, ratePercent, type LoanTerms, type OfferedProduct } from '@pf/events';

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
    `${product.name}, a ${years}-year ${kind}, on ${pounds(terms.loanAmount)} over ${plural(terms.termYears, 'year')}: ` +
    `${ratePercent(terms.interestRate)}, ${fee}${cashback}, ${poundsAndPence(figures.monthlyPayment)} a month, APRC ${figures.aprc.toFixed(1)}%`
  );
}
