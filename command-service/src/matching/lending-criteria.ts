/**
 * The lender's rules applied to the borrower's application, in words, one verdict per rule: property type,
 * region, loan-to-value, income multiple (residential), rental interest cover (buy-to-let), the lender's
 * largest loan, and the rate band the LTV prices at. The same functions build the negotiation's limits
 * (negotiation/lending-rules.ts), so what the explanation says is what the agents can agree.
 */
import { ltvPercent, pounds, ratePercent, type CriterionVerdict, type PropertyType, type ReadCriteria } from '@pf/events';
import { application, lenderLoanCap, ltvBandLabel, ltvPremium, type LendingRules } from '../automation/negotiation/lending-rules';
import { DEFAULT_MAX_LTV, dealPropertyValue } from '../automation/negotiation/property-value';

export interface CriterionScore {
  criterion: string;
  verdict: CriterionVerdict;
  score: number;
  detail: string;
}

const TYPE_NAME: Record<PropertyType, string> = {
  residential: 'Residential',
  'buy-to-let': 'Buy-to-let',
  commercial: 'Commercial',
  bridging: 'Bridging',
};
const SCORE: Record<CriterionVerdict, number> = { pass: 100, warn: 50, fail: 0 };

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;
/** A loan to value in the one style, to one decimal ("80.0%"). */
const ltvShare = (share: number) => ltvPercent(share * 100);
const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const list = (words: readonly string[]) => words.join(', ');

export function lendingCriteria(borrower: ReadCriteria, lender: ReadCriteria, rules: LendingRules): CriterionScore[] {
  const value = dealPropertyValue(borrower, lender);
  const applied = application(borrower, value);
  const cap = lenderLoanCap(lender, applied, value, DEFAULT_MAX_LTV, rules);
  const parts: CriterionScore[] = [];
  const add = (criterion: string, verdict: CriterionVerdict, detail: string) =>
    parts.push({ criterion, verdict, score: SCORE[verdict], detail });
  const type = TYPE_NAME[applied.propertyType];

  if (borrower.propertyTypes || lender.propertyTypes) {
    if (cap.typeRefused)
      add(
        'Property type',
        'fail',
        `${type}: this lender lends only on ${list((lender.propertyTypes ?? []).map((t) => TYPE_NAME[t].toLowerCase()))}`,
      );
    else add('Property type', 'pass', `${type}: this lender lends on it`);
  }
  if (lender.regions) {
    const named = list(lender.regions.map(capital));
    if (!applied.region) add('Region', 'warn', `Region not stated; this lender lends in ${named}`);
    else if (cap.regionRefused) add('Region', 'fail', `${capital(applied.region)} is outside this lender's regions (${named})`);
    else add('Region', 'pass', `${capital(applied.region)} is within this lender's regions`);
  }

  const need = applied.need;
  const maxLtv = cap.ltvCap / value;
  if (!need) {
    if (lender.maxLtv !== null)
      add('Loan to value', 'warn', `No loan amount or deposit stated; this lender lends up to ${ltvShare(maxLtv)} LTV`);
    return parts;
  }
  const loan = need.lo;
  const ltv = loan / value;
  if (ltv <= maxLtv + 1e-9)
    add('Loan to value', 'pass', `LTV ${ltvShare(ltv)} (${pounds(loan)} on ${pounds(value)}) is within this lender's ${ltvShare(maxLtv)}`);
  else add('Loan to value', 'fail', `LTV ${ltvShare(ltv)} exceeds this lender's ${ltvShare(maxLtv)}`);

  if (applied.propertyType === 'residential') {
    const multiple = rules.incomeMultiple;
    if (applied.annualIncome === null)
      add('Income multiple', 'warn', `Income not stated; this lender lends up to ${multiple} times income`);
    else {
      const times = Math.round((loan / applied.annualIncome) * 10) / 10;
      const said = `${pounds(loan)} is ${times} times income of ${pounds(applied.annualIncome)}`;
      if (cap.incomeCap !== null && loan <= cap.incomeCap + 1e-9) add('Income multiple', 'pass', `${said}, within ${multiple}`);
      else add('Income multiple', 'fail', `${said}, above this lender's ${multiple}`);
    }
  }
  if (applied.propertyType === 'buy-to-let') {
    const needed = `needs ${percent(rules.interestCover)} at ${ratePercent(rules.stressedRate)}`;
    if (applied.monthlyRent === null) add('Rental cover', 'warn', `Expected rent not stated; buy-to-let ${needed}`);
    else {
      const cover = (applied.monthlyRent * 12) / (loan * (rules.stressedRate / 100));
      const said = `Rent of ${pounds(applied.monthlyRent)} a month covers ${percent(cover)} of interest`;
      if (cap.rentCap !== null && loan <= cap.rentCap + 1e-9) add('Rental cover', 'pass', `${said} (${needed})`);
      else add('Rental cover', 'fail', `${said}; this lender ${needed}`);
    }
  }
  if (lender.loanAmount.max !== null) {
    const most = pounds(lender.loanAmount.max);
    if (loan <= lender.loanAmount.max) add('Loan size', 'pass', `${pounds(loan)} is within this lender's maximum of ${most}`);
    else add('Loan size', 'fail', `${pounds(loan)} exceeds this lender's maximum of ${most}`);
  }
  if (lender.interestRate.min !== null) {
    const from = lender.interestRate.min + ltvPremium(ltv, rules);
    add('Pricing', 'pass', `LTV band ${ltvBandLabel(ltv, rules)}: rates from ${ratePercent(from)}`);
  }
  return parts;
}
