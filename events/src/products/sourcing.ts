/**
 * Sourcing, as a broker's sourcing system does it (docs/behaviour/products.md, "Sourcing"): for a borrower's needs,
 * every product of every lender it may meet, each with pass, warn or fail and the reasons (criteria, LTV band, loan
 * size, age, affordability); for those that can be offered, the monthly payment, the true cost over the initial
 * period and the APRC from the one module of regulated figures; ranked by true cost. Pure: the matcher, the
 * negotiation and the Matching screen's read all call this.
 */
import { z } from 'zod';
import { pounds as money, percentage } from '../format/money';
import { criterionVerdict, type CriterionVerdict } from '../negotiation';
import type { ReadCriteria } from '../read-criteria';
import { illustrate, trueCostOverInitialPeriod, type IllustrationInput } from '../regulated';
import { ltvPercentOf, type BorrowerNeeds } from './needs';
import { feeFor, initialRateFor, maxLtvOf, productType, type Product, type ProductRange } from './product';

/** The affordability rules a lender applies (the negotiation's lending rules: income multiple, rental cover). */
export interface AffordabilityRules {
  incomeMultiple: number;
  /** 1.25 for 125%. */
  interestCover: number;
  /** Percent a year. */
  stressedRate: number;
}

export interface SourcingLender {
  agentId: number;
  name: string;
  range: ProductRange;
  /** The lender's free-text criteria as read (region, property value range, property type). */
  criteria: ReadCriteria;
}

const sourcingReason = z.object({ criterion: z.string(), verdict: criterionVerdict, detail: z.string() });
export type SourcingReason = z.infer<typeof sourcingReason>;

/** A line's figures (pounds, percent): the first period's monthly payment, the true cost over the initial period, the APRC. */
export const sourcedQuote = z.object({
  initialRatePercent: z.number(),
  reversionRatePercent: z.number(),
  fee: z.number(),
  feeAdded: z.boolean(),
  monthlyPayment: z.number(),
  trueCostOverInitialPeriod: z.number(),
  aprc: z.number(),
  procurationFee: z.number(),
});
export type SourcedQuote = z.infer<typeof sourcedQuote>;

/** One product line: a product, or its fee-free alternative, with its verdict, reasons and (unless failed) figures. */
export const sourcedProduct = z.object({
  lenderAgentId: z.number().int(),
  lenderName: z.string(),
  productId: z.string(),
  productName: z.string(),
  productType,
  initialPeriodMonths: z.number().int(),
  feeFree: z.boolean(),
  verdict: criterionVerdict,
  reasons: z.array(sourcingReason),
  quote: sourcedQuote.nullable(),
});
export type SourcedProduct = z.infer<typeof sourcedProduct>;

/** What a Match records and the Matching screen shows: the lines best first (at most SOURCING_LINES), and how many there were. */
export const SOURCING_LINES = 30;
export const sourcingResult = z.object({
  lines: z.array(sourcedProduct),
  totalLines: z.number().int(),
  /** The lenders the agent negotiates with: the cheapest few whose best line can be offered. */
  shortlist: z.array(z.number().int()),
});
export type SourcingResult = z.infer<typeof sourcingResult>;

const VERDICT_ORDER: Record<CriterionVerdict, number> = { pass: 0, warn: 1, fail: 2 };

/** Every line of every lender, those that can be offered first by true cost, then the failed. */
export function source(
  needs: BorrowerNeeds,
  borrower: ReadCriteria,
  lenders: readonly SourcingLender[],
  bankRatePercent: number,
  rules: AffordabilityRules,
): SourcedProduct[] {
  const lines = lenders.flatMap((lender) =>
    lender.range.products.flatMap((product) => {
      const withFee = sourceLine(needs, borrower, lender, product, false, bankRatePercent, rules);
      return product.feeFreePremiumPercent === undefined
        ? [withFee]
        : [withFee, sourceLine(needs, borrower, lender, product, true, bankRatePercent, rules)];
    }),
  );
  return lines.sort(
    (a, b) =>
      Number(a.quote === null) - Number(b.quote === null) ||
      (a.quote && b.quote ? a.quote.trueCostOverInitialPeriod - b.quote.trueCostOverInitialPeriod : 0) ||
      VERDICT_ORDER[a.verdict] - VERDICT_ORDER[b.verdict] ||
      a.lenderAgentId - b.lenderAgentId ||
      a.productId.localeCompare(b.productId) ||
      Number(a.feeFree) - Number(b.feeFree),
  );
}

/**
 * The best few lenders to negotiate with: each lender's cheapest line that can be offered (a pass, or a warn such as
 * a preferred period missed), the `size` cheapest lenders.
 */
export function shortlist(sourced: readonly SourcedProduct[], size: number): SourcedProduct[] {
  const best = new Map<number, SourcedProduct>();
  for (const line of sourced) if (line.quote && !best.has(line.lenderAgentId)) best.set(line.lenderAgentId, line);
  return [...best.values()].slice(0, size);
}

/** Sourcing as recorded: the lines best first (capped), their count, and the shortlist of `size` lenders. */
export function sourcingResultOf(sourced: readonly SourcedProduct[], size: number): SourcingResult {
  return {
    lines: sourced.slice(0, SOURCING_LINES),
    totalLines: sourced.length,
    shortlist: shortlist(sourced, size).map((line) => line.lenderAgentId),
  };
}

function sourceLine(
  needs: BorrowerNeeds,
  borrower: ReadCriteria,
  lender: SourcingLender,
  product: Product,
  feeFree: boolean,
  bankRatePercent: number,
  rules: AffordabilityRules,
): SourcedProduct {
  const ltv = ltvPercentOf(needs);
  const fee = feeFree ? 0 : feeFor(product, needs.loanAmount);
  const reasons: SourcingReason[] = [
    purposeReason(needs, product),
    ltvReason(ltv, product),
    loanReason(needs, product),
    ageReason(needs, lender.range),
    affordabilityReason(needs, rules),
    ...criteriaReasons(needs, borrower, lender.criteria),
    feeReason(needs, product, fee),
    periodReason(needs, product),
  ].filter((reason): reason is SourcingReason => reason !== null);
  const verdict = reasons.reduce<CriterionVerdict>(
    (worst, r) => (VERDICT_ORDER[r.verdict] > VERDICT_ORDER[worst] ? r.verdict : worst),
    'pass',
  );
  const rate = initialRateFor(product, ltv, bankRatePercent, feeFree);
  const quote = verdict === 'fail' || rate === null ? null : quoteFor(needs, lender.range, product, rate, fee);
  return {
    lenderAgentId: lender.agentId,
    lenderName: lender.name,
    productId: product.id,
    productName: feeFree ? `${product.name} (no fee)` : product.name,
    productType: product.type,
    initialPeriodMonths: product.initialPeriodMonths,
    feeFree,
    verdict,
    reasons,
    quote,
  };
}

/** The illustration of a product at a rate and fee for these needs: the initial period, then the reversion rate. */
export function illustrationFor(
  needs: BorrowerNeeds,
  product: Pick<Product, 'initialPeriodMonths' | 'reversionRatePercent'>,
  ratePercent: number,
  fee: number,
  cashback = 0,
): IllustrationInput {
  const termMonths = needs.termYears * 12;
  const rates =
    product.initialPeriodMonths < termMonths
      ? [{ ratePercent, months: product.initialPeriodMonths }, { ratePercent: product.reversionRatePercent }]
      : [{ ratePercent }];
  const added = needs.fee === 'added';
  return {
    loan: needs.loanAmount,
    termMonths,
    rates,
    ...(fee > 0 ? (added ? { feesAddedToLoan: [fee] } : { fees: [fee] }) : {}),
    ...(cashback > 0 ? { cashback } : {}),
    repayment: needs.repaymentType,
  };
}

function quoteFor(needs: BorrowerNeeds, range: ProductRange, product: Product, rate: number, fee: number): SourcedQuote {
  const illustration = illustrationFor(needs, product, rate, fee);
  const figures = illustrate(illustration);
  return {
    initialRatePercent: rate,
    reversionRatePercent: product.reversionRatePercent,
    fee,
    feeAdded: needs.fee === 'added' && fee > 0,
    monthlyPayment: figures.payments[0]?.amount ?? 0,
    trueCostOverInitialPeriod: trueCostOverInitialPeriod(illustration),
    aprc: figures.aprc,
    procurationFee: Math.round((needs.loanAmount * range.procurationFeePercent) / 100),
  };
}

const reason = (criterion: string, verdict: CriterionVerdict, detail: string): SourcingReason => ({ criterion, verdict, detail });

function purposeReason(needs: BorrowerNeeds, product: Product): SourcingReason {
  return product.purposes.includes(needs.purpose)
    ? reason('Purpose', 'pass', `Offered for ${needs.purpose}`)
    : reason('Purpose', 'fail', `Not offered for ${needs.purpose} (${product.purposes.join(', ')} only)`);
}

function ltvReason(ltv: number, product: Product): SourcingReason {
  const max = maxLtvOf(product);
  return ltv <= max + 1e-9
    ? reason('LTV band', 'pass', `${percentage(ltv)} LTV is within the product's maximum of ${percentage(max)}`)
    : reason('LTV band', 'fail', `${percentage(ltv)} LTV is above the product's maximum of ${percentage(max)}`);
}

function loanReason(needs: BorrowerNeeds, product: Product): SourcingReason {
  const { loanAmount } = needs;
  if (loanAmount < product.minLoanPounds)
    return reason('Loan size', 'fail', `${money(loanAmount)} is below the minimum loan of ${money(product.minLoanPounds)}`);
  if (loanAmount > product.maxLoanPounds)
    return reason('Loan size', 'fail', `${money(loanAmount)} is above the maximum loan of ${money(product.maxLoanPounds)}`);
  return reason('Loan size', 'pass', `${money(loanAmount)} is within ${money(product.minLoanPounds)} to ${money(product.maxLoanPounds)}`);
}

function ageReason(needs: BorrowerNeeds, range: ProductRange): SourcingReason {
  if (needs.ageYears === undefined)
    return reason('Age at term end', 'warn', `Age not recorded; the lender lends to age ${range.maxAgeAtTermEnd}`);
  const end = needs.ageYears + needs.termYears;
  return end <= range.maxAgeAtTermEnd
    ? reason('Age at term end', 'pass', `${end} at the end of the term; the lender lends to ${range.maxAgeAtTermEnd}`)
    : reason('Age at term end', 'fail', `${end} at the end of the term, past the lender's ${range.maxAgeAtTermEnd}`);
}

function affordabilityReason(needs: BorrowerNeeds, rules: AffordabilityRules): SourcingReason {
  if (needs.purpose === 'buy-to-let') {
    if (needs.expectedMonthlyRent === undefined) return reason('Affordability', 'fail', 'A buy-to-let needs its expected rent');
    const needed = (needs.loanAmount * rules.interestCover * rules.stressedRate) / 100 / 12;
    const cover = Math.round(((needs.expectedMonthlyRent * 12) / ((needs.loanAmount * rules.stressedRate) / 100)) * 1000) / 10;
    return needs.expectedMonthlyRent >= needed
      ? reason(
          'Affordability',
          'pass',
          `Rent covers ${cover}% of the interest at ${rules.stressedRate}% (${Math.round(rules.interestCover * 100)}% needed)`,
        )
      : reason(
          'Affordability',
          'fail',
          `Rent covers ${cover}% of the interest at ${rules.stressedRate}% (${Math.round(rules.interestCover * 100)}% needed)`,
        );
  }
  if (needs.annualIncome === undefined) return reason('Affordability', 'warn', 'Income not recorded');
  const assessed = Math.max(0, needs.annualIncome - needs.monthlyCommitments * 12);
  const cap = Math.floor(assessed * rules.incomeMultiple);
  return needs.loanAmount <= cap
    ? reason(
        'Affordability',
        'pass',
        `${money(needs.loanAmount)} is within ${rules.incomeMultiple} times income after commitments (${money(cap)})`,
      )
    : reason(
        'Affordability',
        'fail',
        `${money(needs.loanAmount)} is above ${rules.incomeMultiple} times income after commitments (${money(cap)})`,
      );
}

function criteriaReasons(needs: BorrowerNeeds, borrower: ReadCriteria, lender: ReadCriteria): SourcingReason[] {
  const reasons: SourcingReason[] = [];
  const region = borrower.regions?.[0];
  if (region && lender.regions && !lender.regions.includes(region))
    reasons.push(reason('Region', 'fail', `The lender does not lend in ${region.charAt(0).toUpperCase()}${region.slice(1)}`));
  const { min, max } = lender.propertyValue;
  if ((min !== null && needs.propertyValue < min) || (max !== null && needs.propertyValue > max)) {
    reasons.push(
      reason(
        'Property value',
        'fail',
        `${money(needs.propertyValue)} is outside the lender's ${min !== null ? money(min) : 'any'} to ${max !== null ? money(max) : 'any'}`,
      ),
    );
  }
  return reasons;
}

function feeReason(needs: BorrowerNeeds, product: Product, fee: number): SourcingReason | null {
  if (needs.maxFeePounds === undefined || fee <= needs.maxFeePounds) return null;
  const least = Math.max(0, fee - product.discretion.feeReductionPounds);
  return least <= needs.maxFeePounds
    ? reason(
        'Fee',
        'warn',
        `The fee of ${money(fee)} is above the borrower's cap of ${money(needs.maxFeePounds)}; the lender may reduce it`,
      )
    : reason('Fee', 'fail', `The fee of ${money(fee)} is above the borrower's cap of ${money(needs.maxFeePounds)}`);
}

function periodReason(needs: BorrowerNeeds, product: Product): SourcingReason | null {
  const wanted = needs.preferredInitialPeriodMonths;
  if (wanted === undefined || wanted === product.initialPeriodMonths) return null;
  return reason('Initial period', 'warn', `${product.initialPeriodMonths / 12} years; the borrower prefers ${wanted / 12}`);
}
