import { z } from 'zod';
import { mortgagePurpose } from './product';

/**
 * A borrower's needs as a broker records them at fact-find (docs/behaviour/products.md): the property's value and
 * the loan wanted, the term (the borrower's choice, bounded by their age at its end), the purpose, how it is repaid,
 * the initial period they prefer, whether a fee is paid or added to the loan (and the most they will pay), and the
 * income and commitments affordability is judged on. Structured, never free text; the loan and the term are the
 * borrower's and are never traded in a negotiation.
 */
export const REPAYMENT_TYPES = ['repayment', 'interest-only'] as const;
export const repaymentType = z.enum(REPAYMENT_TYPES, { error: 'repaymentType must be repayment or interest-only' });
export type RepaymentType = z.infer<typeof repaymentType>;

export const FEE_PAYMENTS = ['paid', 'added'] as const;
export const feePayment = z.enum(FEE_PAYMENTS, { error: 'fee must be paid or added (to the loan)' });
export type FeePayment = z.infer<typeof feePayment>;

/** The oldest a borrower may be at the end of the term anywhere on the platform; each lender may say less. */
export const MAX_AGE_AT_TERM_END = 85;

const wholePounds = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a number of pounds` })
    .int({ error: `${label} must be whole pounds` })
    .min(0, { error: `${label} must be £0 or more` })
    .max(max, { error: `${label} must be at most £${max.toLocaleString('en-GB')}` });

export const borrowerNeeds = z
  .object({
    propertyValue: wholePounds('propertyValue', 100_000_000).min(1, { error: 'propertyValue must be more than £0' }),
    loanAmount: wholePounds('loanAmount', 100_000_000).min(1, { error: 'loanAmount must be more than £0' }),
    termYears: z
      .number({ error: 'termYears must be a number of years' })
      .int({ error: 'termYears must be whole years' })
      .min(5, { error: 'termYears must be at least 5' })
      .max(40, { error: 'termYears must be at most 40' }),
    /** The borrower's age now (the oldest applicant's), which bounds the term; absent: not recorded (older agents). */
    ageYears: z
      .number({ error: 'ageYears must be a number of years' })
      .int({ error: 'ageYears must be whole years' })
      .min(18, { error: 'ageYears must be at least 18' })
      .max(80, { error: 'ageYears must be at most 80' })
      .optional(),
    purpose: mortgagePurpose,
    repaymentType,
    /** Months; absent: no preference. */
    preferredInitialPeriodMonths: z.number().int().min(12).max(120).optional(),
    fee: feePayment,
    /** The most the borrower will pay in product fees, pounds; absent: no cap stated. */
    maxFeePounds: wholePounds('maxFeePounds', 25_000).optional(),
    /** Absent: not recorded (older agents), so affordability cannot be judged. */
    annualIncome: wholePounds('annualIncome', 100_000_000).optional(),
    /** Loans, cards and other commitments, pounds a month. */
    monthlyCommitments: wholePounds('monthlyCommitments', 1_000_000),
    /** Buy-to-let: the rent the property is expected to earn, pounds a month. */
    expectedMonthlyRent: wholePounds('expectedMonthlyRent', 1_000_000).optional(),
  })
  .superRefine((needs, ctx) => {
    if (needs.loanAmount > needs.propertyValue) {
      ctx.addIssue({ code: 'custom', path: ['loanAmount'], message: 'loanAmount cannot exceed propertyValue' });
    }
    if (needs.ageYears !== undefined && needs.ageYears + needs.termYears > MAX_AGE_AT_TERM_END) {
      ctx.addIssue({
        code: 'custom',
        path: ['termYears'],
        message: `The term must end by age ${MAX_AGE_AT_TERM_END} (${needs.ageYears} + ${needs.termYears} is ${needs.ageYears + needs.termYears})`,
      });
    }
    if (needs.purpose === 'buy-to-let' && needs.expectedMonthlyRent === undefined) {
      ctx.addIssue({ code: 'custom', path: ['expectedMonthlyRent'], message: 'A buy-to-let needs its expected monthly rent' });
    }
  });
export type BorrowerNeeds = z.infer<typeof borrowerNeeds>;

/** Loan-to-value, percent, to two decimals. */
export function ltvPercentOf(needs: Pick<BorrowerNeeds, 'loanAmount' | 'propertyValue'>): number {
  return Math.round((needs.loanAmount / needs.propertyValue) * 10_000) / 100;
}
