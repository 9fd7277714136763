import { z } from 'zod';
import type { LoanTerms } from '../negotiation';
import { repaymentType } from '../products/needs';
import { productType } from '../products/product';
import { percentage, pounds, wholeNumber } from '../format';
import { illustrate, trueCostOverInitialPeriod, type IllustrationInput } from '../regulated';

/**
 * An offer as recorded (docs/behaviour/offers.md): the loan terms (rate, term, loan, fee) and, since products, the
 * product they are terms of, as the lender's range stood when it was offered (its name, type, initial period,
 * reversion rate, ERCs), with the cashback and whether the fee is added to the loan. The regulated figures of an
 * offer are computed from this alone, here, by `offerFigures`: every screen, message and document reads them from it.
 */
export const offeredProduct = z.object({
  productId: z.string(),
  name: z.string(),
  type: productType,
  initialPeriodMonths: z.number().int().positive(),
  reversionRatePercent: z.number().min(0),
  ercPercentByYear: z.array(z.number().min(0)),
  /** The product's fee-free alternative (its rate the premium higher). */
  feeFree: z.boolean(),
  feeAddedToLoan: z.boolean(),
  cashbackPounds: z.number().int().nonnegative(),
  repaymentType: repaymentType.optional(),
});
export type OfferedProduct = z.infer<typeof offeredProduct>;

/**
 * Why an automated move was made: the rule it followed and the figures it used (pounds and percent), so History
 * can show it and an auditor can check it (docs/behaviour/negotiation.md).
 */
export const moveReason = z.object({
  rule: z.string().min(1).max(200),
  figures: z.record(z.string(), z.number()),
});
export type MoveReason = z.infer<typeof moveReason>;

/** A figure's name in words: "trueCostPounds" → "true cost". */
const figureName = (key: string) =>
  key
    .replace(/(Pounds|Percent)$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();

/**
 * A figure as written: a name ending in Percent or naming a rate is a percentage; one ending in Pounds or naming a
 * cost, fee, payment, loan, cashback or amount is pounds; any other a plain number (docs/behaviour/offers.md).
 */
function figureText(key: string, value: number): string {
  if (/Percent$|rate/i.test(key)) return percentage(value);
  if (/Pounds$|cost|fee|payment|loan|cashback|amount/i.test(key)) return pounds(value);
  return Number.isInteger(value) ? wholeNumber(value) : String(Math.round(value * 100) / 100);
}

/** An automated move's reason as History shows it: its rule, then each figure it used ("true cost £12,345"). */
export function moveReasonInWords(reason: MoveReason): string {
  const figures = Object.entries(reason.figures).map(([key, value]) => `${figureName(key)} ${figureText(key, value)}`);
  return figures.length > 0 ? `${reason.rule} (${figures.join(', ')})` : reason.rule;
}

/**
 * The figures a person reads beside an offer's terms: each period's payment, the totals and the APRC (MCOB 10A). A
 * schema, since the read side serves them (History, the thread's offer cards, deals) and the console only shows them.
 */
export const offerFiguresView = z.object({
  payments: z.array(z.object({ months: z.number().int(), amount: z.number() })),
  monthlyPayment: z.number(),
  totalAmountPayable: z.number(),
  totalCostOfCredit: z.number(),
  aprc: z.number(),
  /** Payments over the initial period plus fees, less cashback; null when no product (one rate for the whole term). */
  trueCostOverInitialPeriod: z.number().nullable(),
});
export type OfferFigures = z.infer<typeof offerFiguresView>;

/** The illustration of an offer: its initial rate for the product's initial period, then the reversion rate. */
export function illustrationOfOffer(terms: LoanTerms, product?: OfferedProduct | null): IllustrationInput {
  const termMonths = terms.termYears * 12;
  const initial = product?.initialPeriodMonths;
  const reverts = product !== undefined && product !== null && initial !== undefined && initial < termMonths;
  const fee = terms.arrangementFee;
  return {
    loan: terms.loanAmount,
    termMonths,
    rates: reverts
      ? [{ ratePercent: terms.interestRate, months: initial }, { ratePercent: product.reversionRatePercent }]
      : [{ ratePercent: terms.interestRate }],
    ...(fee > 0 ? (product?.feeAddedToLoan ? { feesAddedToLoan: [fee] } : { fees: [fee] }) : {}),
    ...(product && product.cashbackPounds > 0 ? { cashback: product.cashbackPounds } : {}),
    ...(reverts && product.type === 'fixed' ? { initialRateFixed: true } : {}),
    ...(product?.repaymentType ? { repayment: product.repaymentType } : {}),
  };
}

/** The offer's regulated figures, from the one module that computes them (events/src/regulated). */
export function offerFigures(terms: LoanTerms, product?: OfferedProduct | null): OfferFigures {
  const input = illustrationOfOffer(terms, product);
  const figures = illustrate(input);
  return {
    payments: figures.payments,
    monthlyPayment: figures.payments[0]?.amount ?? 0,
    totalAmountPayable: figures.totalAmountPayable,
    totalCostOfCredit: figures.totalCostOfCredit,
    aprc: figures.aprc,
    trueCostOverInitialPeriod: product ? trueCostOverInitialPeriod(input) : null,
  };
}

/**
 * The figures to serve beside recorded terms, or null where none can be computed (terms recorded before the terms
 * rules, such as a loan of £0, have no APRC): a read answers with the rest rather than failing.
 */
export function servedOfferFigures(terms: LoanTerms, product?: OfferedProduct | null): OfferFigures | null {
  if (offerTermsProblem(terms) !== null) return null;
  try {
    return offerFigures(terms, product);
  } catch {
    return null;
  }
}

/** Why a set of terms cannot be an offer, in words; null when it can (plausible figures only: £0, 0% or 0 years is a misreading). */
export function offerTermsProblem(terms: LoanTerms): string | null {
  if (!(terms.loanAmount > 0)) return 'terms.loanAmount: must be more than £0';
  if (!(terms.interestRate > 0 && terms.interestRate < 100)) return 'terms.interestRate: must be between 0% and 100%';
  if (!(terms.termYears >= 1 && terms.termYears <= 50)) return 'terms.termYears: must be between 1 and 50 years';
  if (!(terms.arrangementFee >= 0)) return 'terms.arrangementFee: must be £0 or more';
  return null;
}
