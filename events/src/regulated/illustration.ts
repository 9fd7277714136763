import { z } from 'zod';
import { solveAprc } from './aprc';

/**
 * The regulated figures of a mortgage, computed in one place: each period's monthly payment, the total amount
 * payable, the total cost of credit and the APRC. docs/behaviour/regulated-figures.md says what is computed and
 * from which rules of the FCA Handbook (MCOB 10A for the APRC, MCOB 5A for the ESIS).
 */

const poundsField = (label: string) =>
  z
    .number({ error: `${label} must be a number of pounds` })
    .finite()
    .nonnegative({ error: `${label} must not be negative` });

const ratePeriodSchema = z.object({
  ratePercent: z
    .number({ error: 'a rate must be a percentage' })
    .finite()
    .min(0, { error: 'a rate must not be negative' })
    .max(100, { error: 'a rate is at most 100%' }),
  months: z.number().int({ error: 'a period is a whole number of months' }).positive({ error: 'a period is at least 1 month' }).optional(),
});
export type RatePeriod = z.infer<typeof ratePeriodSchema>;

export const illustrationInputSchema = z
  .object({
    loan: poundsField('the loan')
      .positive({ error: 'the loan must be more than £0' })
      .max(100_000_000, { error: 'the loan is at most £100,000,000' }),
    termMonths: z
      .number({ error: 'the term must be a number of months' })
      .int({ error: 'the term is a whole number of months' })
      .min(12, { error: 'the term is at least 1 year' })
      .max(600, { error: 'the term is at most 50 years' }),
    rates: z.array(ratePeriodSchema).min(1, { error: 'at least one rate is needed' }),
    fees: z.array(poundsField('a fee')).optional(),
    feesAddedToLoan: z.array(poundsField('a fee added to the loan')).optional(),
    /** Pounds paid when the mortgage ends (an exit or discharge fee), with the last payment. */
    feesAtEnd: z.array(poundsField('a fee at the end')).optional(),
    cashback: poundsField('the cashback').optional(),
    /**
     * The first rate is fixed and the later ones follow a variable rate: the APRC takes a later rate below the
     * fixed one at the fixed one (docs/behaviour/regulated-figures.md, "The rate after an initial fixed period").
     */
    initialRateFixed: z.boolean().optional(),
    repayment: z.enum(['repayment', 'interest-only'], { error: 'repayment is repayment or interest-only' }).optional(),
  })
  .superRefine((input, ctx) => {
    const last = input.rates.length - 1;
    let months = 0;
    input.rates.forEach((period, index) => {
      if (index < last && period.months === undefined)
        ctx.addIssue({
          code: 'custom',
          message: `rate ${index + 1} of ${last + 1} needs a number of months: only the last runs to the end of the term`,
        });
      if (index < last) months += period.months ?? 0;
    });
    const lastMonths = input.rates[last]?.months;
    if (months >= input.termMonths)
      ctx.addIssue({
        code: 'custom',
        message: `the rates before the last cover ${months} months, which leaves none of the ${input.termMonths}-month term for the last`,
      });
    else if (lastMonths !== undefined && months + lastMonths !== input.termMonths)
      ctx.addIssue({
        code: 'custom',
        message: `the last rate runs to the end of the term: give it no months, or ${input.termMonths - months}`,
      });
  });
export type IllustrationInput = z.input<typeof illustrationInputSchema>;

export interface Illustration {
  /** Each rate period's monthly payment, pounds to the penny, in order. */
  payments: { months: number; amount: number }[];
  /** Interest-only: the capital repaid with the last payment (pounds); 0 for a repayment mortgage. */
  finalCapitalRepayment: number;
  /** Every payment plus the fees paid at the start and at the end (pounds to the penny). */
  totalAmountPayable: number;
  /** Every fee: paid at the start, added to the loan and paid at the end. */
  totalFees: number;
  /** The total amount payable less the loan advanced: interest and fees. */
  totalCostOfCredit: number;
  /** Percent, one decimal place, rounded half up (MCOB 10A.2.3R(4)). */
  aprc: number;
  /** The rate X solving MCOB 10A.2.2R before rounding, in percent (so its equation can be checked). */
  aprcUnrounded: number;
  /** The flows of the APRC equation: what the borrower receives at the start, then all paid in each month. */
  cashFlows: { advanced: number; monthly: number[] };
}

const sum = (values: readonly number[] | undefined) => (values ?? []).reduce((total, value) => total + value, 0);
const toPence = (value: number) => Math.round(value * 100 + Number.EPSILON * 100) / 100;

/** The level monthly payment that repays `balance` over `months` at `annualPercent` (the standard annuity). */
function annuity(balance: number, annualPercent: number, months: number): number {
  const monthly = annualPercent / 1200;
  if (monthly === 0) return balance / months;
  return (balance * monthly) / (1 - (1 + monthly) ** -months);
}

/** The periods with their months filled in: the last runs to the end of the term. */
type ParsedInput = z.output<typeof illustrationInputSchema>;

function periodsOf(input: ParsedInput) {
  let used = 0;
  return input.rates.map((period, index) => {
    const months = index === input.rates.length - 1 ? input.termMonths - used : (period.months ?? 0);
    used += months;
    return { ratePercent: period.ratePercent, months };
  });
}

/** Parses the input with the one schema; a RangeError naming the first problem when it is wrong. */
export function parseIllustrationInput(input: IllustrationInput) {
  const parsed = illustrationInputSchema.safeParse(input);
  if (!parsed.success) throw new RangeError(parsed.error.issues[0]?.message ?? 'the illustration input is invalid');
  return parsed.data;
}

/**
 * The figures a lender prints. Interest is charged monthly at a twelfth of the annual rate; each period's payment
 * is the annuity that would repay the balance then outstanding over the rest of the term, rounded to the nearest
 * penny; the balance is carried forward with the payments as rounded.
 */
export function illustrate(raw: IllustrationInput): Illustration {
  const input = parseIllustrationInput(raw);
  const periods = periodsOf(input);
  const shown = schedule(input, periods);
  const upfrontFees = sum(input.fees);
  const endFees = sum(input.feesAtEnd);
  const fixed = periods[0]?.ratePercent ?? 0;
  const assumed = input.initialRateFixed
    ? periods.map((period) => ({ ...period, ratePercent: Math.max(period.ratePercent, fixed) }))
    : periods;
  const monthly = (assumed === periods ? shown : schedule(input, assumed)).monthly;
  monthly[monthly.length - 1] = (monthly.at(-1) ?? 0) + endFees;
  const paid = shown.payments.reduce((total, period) => total + period.months * period.amount, 0);
  const totalAmountPayable = toPence(paid + shown.finalCapitalRepayment + upfrontFees + endFees);
  const advanced = input.loan - upfrontFees + (input.cashback ?? 0);
  const aprcUnrounded = solveAprc(advanced, monthly);
  return {
    payments: shown.payments,
    finalCapitalRepayment: shown.finalCapitalRepayment,
    totalAmountPayable,
    totalFees: toPence(upfrontFees + sum(input.feesAddedToLoan) + endFees),
    totalCostOfCredit: toPence(totalAmountPayable - input.loan),
    aprc: roundHalfUpOneDecimal(aprcUnrounded),
    aprcUnrounded,
    cashFlows: { advanced, monthly },
  };
}

/** Each period's payment and every month's payment (the capital of an interest-only loan in the last). */
function schedule(input: ParsedInput, periods: { ratePercent: number; months: number }[]) {
  const interestOnly = input.repayment === 'interest-only';
  let balance = input.loan + sum(input.feesAddedToLoan);
  let monthsLeft = input.termMonths;
  const payments: Illustration['payments'] = [];
  const monthly: number[] = [];
  for (const period of periods) {
    const amount = toPence(interestOnly ? (balance * period.ratePercent) / 1200 : annuity(balance, period.ratePercent, monthsLeft));
    payments.push({ months: period.months, amount });
    for (let month = 0; month < period.months; month += 1) {
      if (!interestOnly) balance = balance * (1 + period.ratePercent / 1200) - amount;
      monthly.push(amount);
    }
    monthsLeft -= period.months;
  }
  const finalCapitalRepayment = interestOnly ? toPence(balance) : 0;
  monthly[monthly.length - 1] = (monthly.at(-1) ?? 0) + finalCapitalRepayment;
  return { payments, monthly, finalCapitalRepayment };
}

/** MCOB 10A.2.3R(4): one decimal place, a following figure of 5 or more raising the one before it. */
function roundHalfUpOneDecimal(percent: number): number {
  return Math.floor(percent * 10 + 0.5 + 1e-9) / 10;
}

/**
 * The true cost over the initial period, as broker sourcing systems rank products: the payments of the first
 * rate period plus every fee (paid at the start, added to the loan or paid at the end), less any cashback.
 */
export function trueCostOverInitialPeriod(input: IllustrationInput): number {
  const figures = illustrate(input);
  const [first] = figures.payments;
  const payments = first ? first.months * first.amount : 0;
  return toPence(payments + figures.totalFees - (input.cashback ?? 0));
}
