import { pounds, poundsAndPence, percentage } from '../format';
import { illustrate, parseIllustrationInput, type IllustrationInput } from './illustration';

/** "25 years", "2 years", "18 months", "2 years and 6 months". */
export function termInWords(months: number): string {
  const years = Math.floor(months / 12);
  const rest = months % 12;
  const y = years === 1 ? '1 year' : `${years} years`;
  const m = rest === 1 ? '1 month' : `${rest} months`;
  if (years === 0) return m;
  return rest === 0 ? y : `${y} and ${m}`;
}

/** "a", "a and b", "a, b and c". */
const inWords = (parts: string[]) => (parts.length < 2 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`);

/**
 * The representative example a lender prints (the form of the lenders' own, quoted in
 * docs/behaviour/regulated-figures.md): the loan, the term, each rate and how long it lasts, the payments, the
 * total amount payable made up of the loan, the interest and the fees, and the APRC.
 */
export function representativeExample(raw: IllustrationInput, lenderName?: string): string {
  const input = parseIllustrationInput(raw);
  const figures = illustrate(input);
  const fees = figures.totalFees;
  const rates = figures.payments.map((period, index) => {
    const rate = percentage(input.rates[index]?.ratePercent ?? 0);
    if (index === 0) return figures.payments.length === 1 ? `at ${rate}` : `initially at ${rate} for ${termInWords(period.months)}`;
    const last = index === figures.payments.length - 1;
    return `then at ${rate} for ${last ? 'the remaining ' : ''}${termInWords(period.months)}`;
  });
  const payments = figures.payments.map(
    (period) => `${period.months} monthly ${period.months === 1 ? 'payment' : 'payments'} of ${poundsAndPence(period.amount)}`,
  );
  const interestOnly = input.repayment === 'interest-only';
  const capital = interestOnly ? `, with the ${pounds(figures.finalCapitalRepayment)} borrowed repaid at the end of the term` : '';
  const interest = figures.totalCostOfCredit - fees;
  const cashback = input.cashback ? ` The mortgage includes cashback of ${pounds(input.cashback)} paid on completion.` : '';
  return (
    `Representative example: a${interestOnly ? 'n interest-only' : ' repayment'} mortgage of ${pounds(input.loan)} ` +
    `${lenderName ? `from ${lenderName} ` : ''}payable over ${termInWords(input.termMonths)}, ${inWords(rates)}, ` +
    `would require ${inWords(payments)}${capital}. ` +
    `The total amount payable would be ${poundsAndPence(figures.totalAmountPayable)}, made up of the loan amount plus interest ` +
    `(${poundsAndPence(interest)}) and fees (${poundsAndPence(fees)}).${cashback} ` +
    `The overall cost for comparison is ${figures.aprc.toFixed(1)}% APRC representative.`
  );
}
