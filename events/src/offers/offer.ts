import { z } from 'zod';
import { loanTerms, type LoanTerms } from '../negotiation';
import { repaymentType } from '../products/needs';
import { productType } from '../products/product';
import { illustrate, trueCostOverInitialPeriod, type Illustration, type IllustrationInput } from '../regulated';

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

/** The figures a person reads beside an offer's terms: each period's payment, the totals and the APRC (MCOB 10A). */
export interface OfferFigures {
  payments: Illustration['payments'];
  monthlyPayment: number;
  totalAmountPayable: number;
  totalCostOfCredit: number;
  aprc: number;
  /** Payments over the initial period plus fees, less cashback; null when no product (one rate for the whole term). */
  trueCostOverInitialPeriod: number | null;
}

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

/** Why a set of terms cannot be an offer, in words; null when it can (plausible figures only: £0, 0% or 0 years is a misreading). */
export function offerTermsProblem(terms: LoanTerms): string | null {
  if (!(terms.loanAmount > 0)) return 'terms.loanAmount: must be more than £0';
  if (!(terms.interestRate > 0 && terms.interestRate < 100)) return 'terms.interestRate: must be between 0% and 100%';
  if (!(terms.termYears >= 1 && terms.termYears <= 50)) return 'terms.termYears: must be between 1 and 50 years';
  if (!(terms.arrangementFee >= 0)) return 'terms.arrangementFee: must be £0 or more';
  return null;
}
