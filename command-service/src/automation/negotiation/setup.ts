/**
 * Who negotiates what: each side's limits (from its criteria and a lending policy), weights, reservation value
 * and concession strategy, plus the property value the deal is about. Pure and deterministic, so a process
 * manager can rebuild the same setup from the agents' events at any time.
 */
import { readCriteria, type ConcessionStrategy, type Criteria, type CriteriaKey, type Range, type ReadCriteria } from '@pf/events';
import { application, DEFAULT_LENDING_RULES, lenderLoanCap, ltvPremium, type LendingRules } from './lending-rules';
import {
  intersect,
  intersectLimits,
  isEmpty,
  ISSUES,
  MARKET,
  mapIssues,
  snapInward,
  type Interval,
  type Limits,
  type PerIssue,
  type Side,
} from './terms-space';

/** Loan-to-value and arrangement fee as shares of the property value; not part of the criteria form. */
export interface LendingPolicy {
  ltv: Interval;
  feeShare: Interval;
}

export const DEFAULT_POLICY: Record<Side, LendingPolicy> = {
  borrower: { ltv: { lo: 0.6, hi: 0.85 }, feeShare: { lo: 0, hi: 0.01 } },
  lender: { ltv: { lo: 0.5, hi: 0.8 }, feeShare: { lo: 0.002, hi: 0.015 } },
};

/** How much each issue matters to each side (sums to 1); private to that side in the negotiation. */
const DEFAULT_WEIGHTS: Record<Side, PerIssue<number>> = {
  borrower: { interestRate: 0.45, termYears: 0.15, loanAmount: 0.25, arrangementFee: 0.15 },
  lender: { interestRate: 0.35, termYears: 0.1, loanAmount: 0.35, arrangementFee: 0.2 },
};

/** Boulware for lenders (hold firm until late), Conceder for borrowers (give ground early), per the issue. */
const DEFAULT_STRATEGY: Record<Side, ConcessionStrategy> = { borrower: 'conceder', lender: 'boulware' };

export interface PartyInput {
  agentId: number;
  criteria: Criteria | null;
  strategy?: ConcessionStrategy;
  weights?: PerIssue<number>;
  /** Utility (0..1 over its own limits) below which this side never agrees; default 0: anything in its limits. */
  reservation?: number;
  policy?: LendingPolicy;
  /** A lender's rules (income multiple, interest cover, LTV pricing); DEFAULT_LENDING_RULES when absent. */
  rules?: LendingRules;
  /** A lender's procuration fee for an introducing broker, percent of the loan (its product range's); absent: none. */
  procurationFeePercent?: number;
}

export interface NegotiatorProfile {
  agentId: number;
  side: Side;
  /** The property values this side deals in; the deal's property value must lie inside. */
  propertyValue: Interval;
  limits: Limits;
  weights: PerIssue<number>;
  reservation: number;
  strategy: ConcessionStrategy;
  /** Criteria it could not read (treated as no limit); its first message says so. */
  unreadable: CriteriaKey[];
}

export interface NegotiationSetup {
  propertyValue: number;
  borrower: NegotiatorProfile;
  lender: NegotiatorProfile;
  brokerAgentId: number | null;
  /** What the lender pays the introducing broker, percent of the loan (docs/behaviour/products.md); 0 when none. */
  procurationFeePercent: number;
}

export function negotiationSetup(borrower: PartyInput, lender: PartyInput, brokerAgentId: number | null = null): NegotiationSetup {
  const borrowerRead = readCriteria(borrower.criteria);
  const lenderRead = readCriteria(lender.criteria);
  const propertyValue = dealPropertyValue(borrowerRead, lenderRead);
  const loans = loanLimits(borrower, borrowerRead, lender, lenderRead, propertyValue);
  // Priced at the band of the largest loan still in play, so any agreed loan pays at least its own band's rate.
  const largest = Math.min(loans.borrower.hi, loans.lender.hi);
  const premium = ltvPremium((largest > 0 ? largest : loans.lender.hi) / propertyValue, lender.rules ?? DEFAULT_LENDING_RULES);
  return {
    propertyValue,
    borrower: profile('borrower', borrower, borrowerRead, propertyValue, loans.borrower, 0),
    lender: profile('lender', lender, lenderRead, propertyValue, loans.lender, premium),
    brokerAgentId,
    procurationFeePercent: lender.procurationFeePercent ?? 0,
  };
}

/**
 * Each side's acceptable loan: the borrower's need (a floor, and its ceiling unless it names a range), else its
 * policy's LTV range; the lender's cap from its rules on this application (max LTV, income multiple, rental
 * cover, type and region), down to the least it lends (its stated minimum, else its policy's, or less if asked).
 */
function loanLimits(
  borrower: PartyInput,
  borrowerRead: ReadCriteria,
  lender: PartyInput,
  lenderRead: ReadCriteria,
  propertyValue: number,
): Record<Side, Interval> {
  const borrowerPolicy = borrower.policy ?? DEFAULT_POLICY.borrower;
  const lenderPolicy = lender.policy ?? DEFAULT_POLICY.lender;
  const applied = application(borrowerRead, propertyValue);
  const wanted = applied.need ?? { lo: propertyValue * borrowerPolicy.ltv.lo, hi: propertyValue * borrowerPolicy.ltv.hi };
  const ownCap = borrowerRead.maxLtv !== null ? borrowerRead.maxLtv * propertyValue : Infinity;
  const cap = lenderLoanCap(lenderRead, applied, propertyValue, lenderPolicy.ltv.hi, lender.rules ?? DEFAULT_LENDING_RULES);
  const least = lenderRead.loanAmount.min ?? Math.min(propertyValue * lenderPolicy.ltv.lo, applied.need?.lo ?? Infinity);
  return {
    borrower: { lo: wanted.lo, hi: Math.min(wanted.hi, ownCap) },
    lender: { lo: Math.min(least, cap.max), hi: cap.max },
  };
}

/**
 * The property the deal is about: the price the borrower's loan and deposit add up to, else the middle of what
 * the borrower named (or the lender, or £250,000), moved into the overlap of both ranges when there is one, in
 * whole thousands.
 */
export function dealPropertyValue(borrower: ReadCriteria, lender: ReadCriteria): number {
  const { loanAmount, loanAmountIsRange, deposit } = borrower;
  const price = deposit && 'pounds' in deposit && loanAmount.min !== null && !loanAmountIsRange ? loanAmount.min + deposit.pounds : null;
  // A price the borrower's own figures fix is the price, whatever range either side named.
  if (price !== null) return price;
  const wanted = preferred(borrower.propertyValue) ?? preferred(lender.propertyValue) ?? 250_000;
  const own = toInterval(borrower.propertyValue, MARKET.propertyValue);
  const both = intersect(own, toInterval(lender.propertyValue, MARKET.propertyValue));
  const within = isEmpty(both) ? own : both;
  const inside = Math.min(Math.max(wanted, within.lo), within.hi);
  const thousands = Math.round(inside / 1000) * 1000;
  return thousands >= within.lo && thousands <= within.hi ? thousands : Math.round(inside);
}

/** The space both sides can agree in, in offer steps; null when some issue has no common value. */
export function agreementSpace(setup: NegotiationSetup): Limits | null {
  if (!canDeal(setup.borrower, setup.propertyValue) || !canDeal(setup.lender, setup.propertyValue)) return null;
  const space = intersectLimits(setup.borrower.limits, setup.lender.limits);
  const snapped = mapIssues((issue) => snapInward(issue, space[issue]));
  return ISSUES.some((issue) => isEmpty(snapped[issue])) ? null : snapped;
}

export function canDeal(profile: NegotiatorProfile, propertyValue: number): boolean {
  return propertyValue >= profile.propertyValue.lo && propertyValue <= profile.propertyValue.hi;
}

function profile(
  side: Side,
  input: PartyInput,
  read: ReadCriteria,
  propertyValue: number,
  loanAmount: Interval,
  ratePremium: number,
): NegotiatorProfile {
  const policy = input.policy ?? DEFAULT_POLICY[side];
  const rate = toInterval(read.interestRate, MARKET.interestRate);
  return {
    agentId: input.agentId,
    side,
    propertyValue: toInterval(read.propertyValue, MARKET.propertyValue),
    limits: {
      interestRate: { lo: rate.lo + ratePremium, hi: rate.hi },
      termYears: toInterval(read.termYears, MARKET.termYears),
      loanAmount,
      arrangementFee: { lo: propertyValue * policy.feeShare.lo, hi: propertyValue * policy.feeShare.hi },
    },
    weights: normalised(input.weights ?? DEFAULT_WEIGHTS[side]),
    reservation: input.reservation ?? 0,
    strategy: input.strategy ?? DEFAULT_STRATEGY[side],
    unreadable: read.unreadable,
  };
}

function toInterval(range: Range, market: Interval): Interval {
  return { lo: range.min ?? market.lo, hi: range.max ?? market.hi };
}

function preferred(range: Range): number | null {
  if (range.min !== null && range.max !== null) return (range.min + range.max) / 2;
  return range.min ?? range.max;
}

function normalised(weights: PerIssue<number>): PerIssue<number> {
  const total = ISSUES.reduce((sum, issue) => sum + Math.max(0, weights[issue]), 0);
  return mapIssues((issue) => (total > 0 ? Math.max(0, weights[issue]) / total : 1 / ISSUES.length));
}
