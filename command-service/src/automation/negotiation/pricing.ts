/**
 * The case a negotiation prices (docs/behaviour/negotiation.md, "Bespoke pricing"): one product line of the lender's
 * for the borrower's needs, at list price, and what the lender's agent may give on it (its discretion). A price
 * point is how far the lender has gone from list: a rate reduction, a fee reduction and cashback. The loan and the
 * term are the borrower's needs, the same in every offer.
 *
 * Concessions are stated in steps a broker would recognise: the rate in 0.05% steps, the fee down to whole £100s
 * (or waived), cashback in £250s; the discretion's exact limit is always a step too, so nothing beyond it is offered.
 */
import {
  earnsRateDiscretion,
  feeFor,
  illustrationOfOffer,
  initialRateFor,
  ltvPercentOf,
  trueCostOverInitialPeriod,
  type BorrowerNeeds,
  type LoanTerms,
  type OfferedProduct,
  type Product,
} from '@pf/events';

export const STEPS = { ratePercent: 0.05, feePounds: 100, cashbackPounds: 250 } as const;

export interface PricePoint {
  /** Percentage points off the list rate. */
  rateReduction: number;
  /** Pounds off the list fee. */
  feeReduction: number;
  cashback: number;
}

/** Plain data (it is kept in the automation's snapshot). */
export interface PricedCase {
  needs: Pick<BorrowerNeeds, 'propertyValue' | 'loanAmount' | 'termYears' | 'repaymentType' | 'fee' | 'maxFeePounds'>;
  /** The product as offers record it, without the cashback (a price point's). */
  product: Omit<OfferedProduct, 'cashbackPounds'>;
  listRate: number;
  listFee: number;
  /** The most the lender's agent may give on each: the discretion (no rate reduction unless the case earns it). */
  max: PricePoint;
  /** The fee reduction the borrower's fee cap needs before anything is offered (0 without a cap or under it). */
  capReduction: number;
}

const EPSILON = 1e-9;
const round2 = (value: number) => Math.round(value * 100) / 100;

/** The case of one product line (the fee-free alternative when `feeFree`) for these needs; null when the fee cap cannot be met. */
export function pricedCase(needs: BorrowerNeeds, product: Product, feeFree: boolean, bankRatePercent: number): PricedCase | null {
  const ltv = ltvPercentOf(needs);
  const listRate = initialRateFor(product, ltv, bankRatePercent, feeFree);
  if (listRate === null) return null;
  const listFee = feeFree ? 0 : feeFor(product, needs.loanAmount);
  const { discretion } = product;
  const max: PricePoint = {
    rateReduction: earnsRateDiscretion(product, ltv, needs.loanAmount) ? Math.min(discretion.rateReductionPercent, listRate) : 0,
    feeReduction: Math.min(discretion.feeReductionPounds, listFee),
    cashback: discretion.cashbackPounds,
  };
  const cap = needs.maxFeePounds;
  // The highest fee the lender may state within the borrower's cap is where it opens; none: no deal on this line.
  const withinCap = cap === undefined ? [listFee] : feeSteps(listFee, max.feeReduction).filter((fee) => fee <= cap);
  const opening = withinCap[0];
  if (opening === undefined) return null;
  const capReduction = listFee - opening;
  return {
    needs: {
      propertyValue: needs.propertyValue,
      loanAmount: needs.loanAmount,
      termYears: needs.termYears,
      repaymentType: needs.repaymentType,
      fee: needs.fee,
      ...(cap !== undefined ? { maxFeePounds: cap } : {}),
    },
    product: {
      productId: product.id,
      name: feeFree ? `${product.name} (no fee)` : product.name,
      type: product.type,
      initialPeriodMonths: product.initialPeriodMonths,
      reversionRatePercent: product.reversionRatePercent,
      ercPercentByYear: product.ercPercentByYear,
      feeFree,
      feeAddedToLoan: needs.fee === 'added',
      repaymentType: needs.repaymentType,
    },
    listRate,
    listFee,
    max,
    capReduction,
  };
}

/** The fees the lender may state, highest first: the list fee, whole £100s below it, down to its least. */
function feeSteps(listFee: number, maxReduction: number): number[] {
  const least = listFee - maxReduction;
  const fees = [listFee];
  for (
    let fee = Math.ceil(listFee / STEPS.feePounds - EPSILON) * STEPS.feePounds - STEPS.feePounds;
    fee > least + EPSILON;
    fee -= STEPS.feePounds
  ) {
    if (fee < listFee) fees.push(fee);
  }
  if (least < listFee) fees.push(least);
  return [...new Set(fees)];
}

/** Reductions from 0 to `max` in `step`s, `max` itself the last. */
function steps(max: number, step: number, round: (n: number) => number): number[] {
  const values: number[] = [];
  for (let value = 0; value < max - EPSILON; value = round(value + step)) values.push(value);
  values.push(round(max));
  return values;
}

/**
 * Every price point the lender's agent may offer, in the order it concedes: from the opening (list price, the fee
 * down to the borrower's cap) the fee first, then cashback, then the rate. Each step gives the borrower at least
 * as much as it costs the lender for the fee and cashback (a pound is a pound; a fee added to the loan also saves
 * its interest), while a rate reduction saves the borrower less over the initial period than it costs the lender
 * in interest, so this order keeps every point on the ladder on the Pareto frontier of the two (bench/README.md).
 */
export function ladder(priced: PricedCase): PricePoint[] {
  const { max, listFee, capReduction } = priced;
  const fees = feeSteps(listFee, max.feeReduction).filter((fee) => listFee - fee >= capReduction - EPSILON);
  const points: PricePoint[] = fees.map((fee) => ({ rateReduction: 0, feeReduction: listFee - fee, cashback: 0 }));
  const feeReduction = points.at(-1)?.feeReduction ?? 0;
  for (const cashback of steps(max.cashback, STEPS.cashbackPounds, Math.round).slice(1))
    points.push({ rateReduction: 0, feeReduction, cashback });
  for (const rateReduction of steps(max.rateReduction, STEPS.ratePercent, round2).slice(1))
    points.push({ rateReduction, feeReduction, cashback: max.cashback });
  return points;
}

export function termsAt(priced: PricedCase, point: PricePoint): LoanTerms {
  return {
    interestRate: round2(priced.listRate - point.rateReduction),
    termYears: priced.needs.termYears,
    loanAmount: priced.needs.loanAmount,
    arrangementFee: Math.round(priced.listFee - point.feeReduction),
  };
}

export function productAt(priced: PricedCase, point: PricePoint): OfferedProduct {
  return { ...priced.product, cashbackPounds: Math.round(point.cashback) };
}

/** Any offer read back as a price point on this case (a person's terms may lie anywhere; its cashback is its product's). */
export function pointOf(priced: PricedCase, terms: LoanTerms, product: OfferedProduct | null): PricePoint {
  return {
    rateReduction: round2(priced.listRate - terms.interestRate),
    feeReduction: priced.listFee - terms.arrangementFee,
    cashback: product?.cashbackPounds ?? 0,
  };
}

/** Why an offer lies outside this case's limits (the needs, the product, the discretion, the fee cap); null when inside. */
export function outsideLimits(priced: PricedCase, terms: LoanTerms, product: OfferedProduct | null): string | null {
  const { needs, max } = priced;
  if (terms.loanAmount !== needs.loanAmount) return 'the loan is not the one needed';
  if (terms.termYears !== needs.termYears) return 'the term is not the one needed';
  if (product && (product.productId !== priced.product.productId || product.feeFree !== priced.product.feeFree)) return 'another product';
  if (needs.maxFeePounds !== undefined && terms.arrangementFee > needs.maxFeePounds) return "the fee is above the borrower's cap";
  const point = pointOf(priced, terms, product);
  if (point.rateReduction < -EPSILON || point.feeReduction < -EPSILON) return 'above list price';
  if (point.rateReduction > max.rateReduction + EPSILON) return "the rate is below the lender's discretion";
  if (point.feeReduction > max.feeReduction + EPSILON) return "the fee is below the lender's discretion";
  if (point.cashback > max.cashback + EPSILON) return "the cashback is beyond the lender's discretion";
  return null;
}

/**
 * What a price point gives up of the lender's margin, pounds: the fee reduction, the cashback, and the rate
 * reduction's interest on the loan over the initial period (a simple measure, documented in bench/README.md).
 */
export function marginGiven(priced: PricedCase, point: PricePoint): number {
  const years = priced.product.initialPeriodMonths / 12;
  return point.feeReduction + point.cashback + (point.rateReduction / 100) * priced.needs.loanAmount * years;
}

const trueCosts = new Map<string, number>();

/** The borrower's true cost over the initial period of an offer (offers.md: payments plus fees, less cashback). */
export function trueCostOf(terms: LoanTerms, product: OfferedProduct): number {
  const key = `${terms.loanAmount}|${terms.termYears}|${terms.interestRate}|${terms.arrangementFee}|${JSON.stringify(product)}`;
  const known = trueCosts.get(key);
  if (known !== undefined) return known;
  // A bounded memo: the engine asks for the same few points again and again (pure, so it changes no answer).
  if (trueCosts.size > 20_000) trueCosts.clear();
  const cost = trueCostOverInitialPeriod(illustrationOfOffer(terms, product));
  trueCosts.set(key, cost);
  return cost;
}

export function trueCostAt(priced: PricedCase, point: PricePoint): number {
  return trueCostOf(termsAt(priced, point), productAt(priced, point));
}
