/** British formatting of the engine's numbers: £ with thousands separators, rates to two places, years. */
import type { LoanTerms } from '@pf/events';

const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: 0 });
const percent = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatPounds(value: number): string {
  return pounds.format(value);
}

export function formatRate(value: number): string {
  return `${percent.format(value)}%`;
}

export function formatYears(value: number): string {
  return value === 1 ? '1 year' : `${value} years`;
}

/** e.g. "£187,000 at 4.25% over 25 years with a £1,250 arrangement fee". */
export function describeTerms(terms: LoanTerms): string {
  return `${formatPounds(terms.loanAmount)} at ${formatRate(terms.interestRate)} over ${formatYears(terms.termYears)} with a ${formatPounds(terms.arrangementFee)} arrangement fee`;
}

export function formatLtv(loanAmount: number, propertyValue: number): string {
  return `${Math.round((loanAmount / propertyValue) * 100)}% LTV`;
}
