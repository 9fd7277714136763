import { z } from 'zod';
import { visibleText } from '../text';

/**
 * A lender's product range as a UK lender publishes it (docs/behaviour/products.md): each product a fixed rate or
 * a tracker over Bank Rate for an initial period, an initial rate by loan-to-value band, the rate it reverts to for
 * the rest of the term, a product fee (pounds, or a percentage of the loan for large loans) with a fee-free
 * alternative priced above it, early repayment charges by year of the initial period, a maximum loan, and the
 * discretion the lender's agent has when it prices a case. Structured, never free text.
 */
export const PRODUCT_TYPES = ['fixed', 'tracker'] as const;
export const productType = z.enum(PRODUCT_TYPES, { error: 'type must be fixed or tracker' });
export type ProductType = z.infer<typeof productType>;

export const MORTGAGE_PURPOSES = ['purchase', 'remortgage', 'buy-to-let'] as const;
export const mortgagePurpose = z.enum(MORTGAGE_PURPOSES, { error: 'purpose must be purchase, remortgage or buy-to-let' });
export type MortgagePurpose = z.infer<typeof mortgagePurpose>;

/** Bank of England Bank Rate, percent: 4% since 7 August 2025, held on 6 November 2025 (docs/behaviour/products.md). */
export const DEFAULT_BANK_RATE_PERCENT = 4;

const percent = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a number (percent)` })
    .min(0, { error: `${label} must be 0% or more` })
    .max(max, { error: `${label} must be at most ${max}%` });
const poundsField = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a number of pounds` })
    .int({ error: `${label} must be whole pounds` })
    .min(0, { error: `${label} must be £0 or more` })
    .max(max, { error: `${label} must be at most £${max.toLocaleString('en-GB')}` });

/** One LTV band: up to `maxLtvPercent` of the property value, at `ratePercent` (a tracker's margin over Bank Rate). */
export const ltvBand = z.object({
  maxLtvPercent: percent('maxLtvPercent', 100).gt(0, { error: 'maxLtvPercent must be more than 0%' }),
  ratePercent: percent('ratePercent', 15),
});
export type LtvBand = z.infer<typeof ltvBand>;

/** A fee in pounds, or a percentage of the loan (large loans) with a floor in pounds. */
export const productFee = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('pounds'), pounds: poundsField('fee', 25_000) }),
    z.object({ kind: z.literal('percent'), percent: percent('fee percent', 3), minimumPounds: poundsField('minimum fee', 25_000) }),
  ],
  { error: 'fee must be { kind: "pounds", pounds } or { kind: "percent", percent, minimumPounds }' },
);
export type ProductFee = z.infer<typeof productFee>;

/**
 * What the lender's agent may give when it prices a case, and no more: a rate reduction up to `rateReductionPercent`
 * for a case at or below `lowLtvPercent` or a loan of at least `largeLoanPounds` (either, when both are set; any case
 * when neither is), the fee reduced by up to `feeReductionPounds` (the whole fee: waived), cashback up to `cashbackPounds`.
 */
export const discretion = z.object({
  rateReductionPercent: percent('rateReductionPercent', 1),
  lowLtvPercent: percent('lowLtvPercent', 100).optional(),
  largeLoanPounds: poundsField('largeLoanPounds', 100_000_000).optional(),
  feeReductionPounds: poundsField('feeReductionPounds', 25_000),
  cashbackPounds: poundsField('cashbackPounds', 5_000),
});
export type Discretion = z.infer<typeof discretion>;

const productId = z
  .string({ error: 'product id is required' })
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, { error: 'product id is 1 to 40 lower-case letters, digits and hyphens' });

export const product = z
  .object({
    id: productId,
    name: visibleText('Product name', { error: 'Product name is required' })
      .trim()
      .min(1, { error: 'Product name is required' })
      .max(80, { error: 'Product name is at most 80 characters' }),
    type: productType,
    purposes: z.array(mortgagePurpose).min(1, { error: 'A product serves at least one purpose' }),
    initialPeriodMonths: z
      .number({ error: 'initialPeriodMonths must be a number of months' })
      .int({ error: 'initialPeriodMonths must be whole months' })
      .min(12, { error: 'initialPeriodMonths must be at least 12' })
      .max(120, { error: 'initialPeriodMonths must be at most 120' })
      .refine((months) => months % 12 === 0, { error: 'initialPeriodMonths must be whole years (a multiple of 12)' }),
    /** Ascending by maxLtvPercent; the last band's is the product's maximum LTV. */
    rates: z
      .array(ltvBand)
      .min(1, { error: 'A product has at least one LTV band' })
      .max(10, { error: 'A product has at most 10 LTV bands' }),
    reversionRatePercent: percent('reversionRatePercent', 15),
    fee: productFee,
    /** The fee-free alternative: the same product with no fee, its rate this much higher; absent, none. */
    feeFreePremiumPercent: percent('feeFreePremiumPercent', 2).optional(),
    /** Early repayment charges, percent of the amount repaid, one per year of the initial period. */
    ercPercentByYear: z.array(percent('ERC', 10)).max(10),
    minLoanPounds: poundsField('minLoanPounds', 100_000_000),
    maxLoanPounds: poundsField('maxLoanPounds', 100_000_000),
    discretion,
  })
  .superRefine((p, ctx) => {
    for (let i = 1; i < p.rates.length; i++) {
      if (p.rates[i]!.maxLtvPercent <= p.rates[i - 1]!.maxLtvPercent) {
        ctx.addIssue({
          code: 'custom',
          path: ['rates', i, 'maxLtvPercent'],
          message: 'LTV bands must rise: each maxLtvPercent above the one before',
        });
      }
    }
    if (p.ercPercentByYear.length !== p.initialPeriodMonths / 12) {
      ctx.addIssue({
        code: 'custom',
        path: ['ercPercentByYear'],
        message: `Give one ERC per year of the initial period (${p.initialPeriodMonths / 12})`,
      });
    }
    if (p.maxLoanPounds < p.minLoanPounds) {
      ctx.addIssue({ code: 'custom', path: ['maxLoanPounds'], message: 'maxLoanPounds must be at least minLoanPounds' });
    }
    if (p.fee.kind === 'pounds' && p.discretion.feeReductionPounds > p.fee.pounds) {
      ctx.addIssue({ code: 'custom', path: ['discretion', 'feeReductionPounds'], message: 'feeReductionPounds cannot exceed the fee' });
    }
  });
export type Product = z.infer<typeof product>;

export const productRange = z
  .object({
    products: z.array(product).min(1, { error: 'A range has at least one product' }).max(40, { error: 'A range has at most 40 products' }),
    /** Paid to the broker who introduced the case, percent of the loan (commonly 0.3 to 0.5%). */
    procurationFeePercent: percent('procurationFeePercent', 2),
    /** The borrower's age at the end of the term may be at most this. */
    maxAgeAtTermEnd: z
      .number({ error: 'maxAgeAtTermEnd must be a number of years' })
      .int({ error: 'maxAgeAtTermEnd must be whole years' })
      .min(50, { error: 'maxAgeAtTermEnd must be at least 50' })
      .max(99, { error: 'maxAgeAtTermEnd must be at most 99' }),
  })
  .superRefine((range, ctx) => {
    const seen = new Set<string>();
    range.products.forEach((p, i) => {
      if (seen.has(p.id)) ctx.addIssue({ code: 'custom', path: ['products', i, 'id'], message: `Product id ${p.id} is used twice` });
      seen.add(p.id);
    });
  });
export type ProductRange = z.infer<typeof productRange>;

/** The product's maximum LTV, percent: its highest band's. */
export function maxLtvOf(p: Product): number {
  return p.rates.at(-1)?.maxLtvPercent ?? 0;
}

/** The band a loan-to-value (percent) falls in; null above the product's maximum. */
export function bandFor(p: Product, ltvPercent: number): LtvBand | null {
  return p.rates.find((band) => ltvPercent <= band.maxLtvPercent + 1e-9) ?? null;
}

/** The initial rate a case pays before any discretion, percent (a tracker's margin plus Bank Rate); null above the maximum LTV. */
export function initialRateFor(p: Product, ltvPercent: number, bankRatePercent: number, feeFree = false): number | null {
  const band = bandFor(p, ltvPercent);
  if (!band) return null;
  const rate = band.ratePercent + (p.type === 'tracker' ? bankRatePercent : 0) + (feeFree ? (p.feeFreePremiumPercent ?? 0) : 0);
  return Math.round(rate * 100) / 100;
}

/** The product fee on a loan, pounds (a percentage fee is never below its floor). */
export function feeFor(p: Product, loanPounds: number): number {
  return p.fee.kind === 'pounds' ? p.fee.pounds : Math.max(p.fee.minimumPounds, Math.round((loanPounds * p.fee.percent) / 100));
}

/** Whether the case earns the product's rate discretion (low LTV or large loan; any case when the product names neither). */
export function earnsRateDiscretion(p: Product, ltvPercent: number, loanPounds: number): boolean {
  const { lowLtvPercent, largeLoanPounds } = p.discretion;
  if (lowLtvPercent === undefined && largeLoanPounds === undefined) return true;
  return (
    (lowLtvPercent !== undefined && ltvPercent <= lowLtvPercent + 1e-9) || (largeLoanPounds !== undefined && loanPounds >= largeLoanPounds)
  );
}
