/**
 * Generated borrower–lender pairs for the property tests and the tournament: a borrower's needs as a broker records
 * them, the lender's product range, and (most of the time) another lender's range as the borrower's alternative.
 * Ranges are modelled on UK lenders' published rate sheets of late 2025 (docs/behaviour/products.md): 2- and 5-year
 * fixes and 2-year trackers over Bank Rate, rates rising by LTV band, a reversion rate of 6.5–8.2%, fees of £0 to
 * £1,999 (or 0.5% for large loans) with a fee-free alternative priced 0.2–0.4% above, and discretion up to 0.3% off
 * the rate, the fee reduced or waived, and up to £1,000 cashback. Needs span £150,000–£1.2m properties at 50–90% LTV
 * over 15–35 years, some with a fee cap, some adding the fee to the loan.
 */
import { CONCESSION_STRATEGIES, readCriteria, type BorrowerNeeds, type Product, type ProductRange, type SourcingLender } from '@pf/events';
import type { BorrowerInput, LenderInput } from '../negotiation/setup';
import { pick, type Rng } from '../rng';

export interface GeneratedPair {
  borrower: BorrowerInput;
  lender: LenderInput;
}

export function generatePair(rng: Rng, firstAgentId = 1): GeneratedPair {
  const needs = generateNeeds(rng);
  const market = 3.6 + rng() * 1.2;
  const lender: LenderInput = {
    agentId: firstAgentId + 1,
    name: 'Lender',
    range: generateRange(rng, market),
    criteria: null,
    strategy: pick(rng, CONCESSION_STRATEGIES),
  };
  const alternatives: SourcingLender[] =
    rng() < 0.8
      ? [
          {
            agentId: firstAgentId + 2,
            name: 'Other lender',
            range: generateRange(rng, market + (rng() - 0.5) * 0.6),
            criteria: readCriteria(null),
          },
        ]
      : [];
  return {
    borrower: { agentId: firstAgentId, needs, criteria: null, strategy: pick(rng, CONCESSION_STRATEGIES), alternatives },
    lender,
  };
}

function generateNeeds(rng: Rng): BorrowerNeeds {
  const propertyValue = between(rng, 150, 1200) * 1000;
  const loanAmount = Math.round((propertyValue * between(rng, 50, 90)) / 100 / 1000) * 1000;
  const buyToLet = rng() < 0.1;
  const cap = rng() < 0.3 ? pick(rng, [0, 500, 999, 1000, 1500]) : undefined;
  return {
    propertyValue,
    loanAmount,
    termYears: between(rng, 15, 35),
    ageYears: between(rng, 25, 45),
    purpose: buyToLet ? 'buy-to-let' : pick(rng, ['purchase', 'remortgage'] as const),
    repaymentType: rng() < 0.9 ? 'repayment' : 'interest-only',
    ...(rng() < 0.4 ? { preferredInitialPeriodMonths: pick(rng, [24, 60]) } : {}),
    fee: rng() < 0.3 ? 'added' : 'paid',
    ...(cap !== undefined ? { maxFeePounds: cap } : {}),
    annualIncome: Math.round(loanAmount / (2.8 + rng() * 1.6) / 1000) * 1000,
    monthlyCommitments: pick(rng, [0, 0, 150, 300]),
    ...(buyToLet ? { expectedMonthlyRent: Math.round((loanAmount * 0.055 * (1.3 + rng() * 0.6)) / 12 / 25) * 25 } : {}),
  };
}

function generateRange(rng: Rng, market: number): ProductRange {
  const count = between(rng, 1, 3);
  return {
    procurationFeePercent: pick(rng, [0.3, 0.35, 0.4, 0.5]),
    maxAgeAtTermEnd: pick(rng, [75, 80, 85]),
    products: Array.from({ length: count }, (_, index) => generateProduct(rng, market, index)),
  };
}

function generateProduct(rng: Rng, market: number, index: number): Product {
  const type = rng() < 0.75 ? 'fixed' : 'tracker';
  const years = type === 'tracker' ? 2 : pick(rng, [2, 5]);
  const base = Math.round((type === 'tracker' ? market - 4 + 0.1 : market + (years === 5 ? 0.1 : 0)) * 100) / 100;
  const fee: Product['fee'] =
    rng() < 0.15 ? { kind: 'percent', percent: 0.5, minimumPounds: 999 } : { kind: 'pounds', pounds: pick(rng, [0, 499, 999, 1499, 1999]) };
  const feePounds = fee.kind === 'pounds' ? fee.pounds : 999;
  const bands = [60, 75, 85, 90, 95].slice(0, between(rng, 3, 5));
  return {
    id: `p${index + 1}`,
    name: `${years}-Year ${type === 'fixed' ? 'Fix' : 'Tracker'}${feePounds === 0 ? ' No Fee' : ''}`,
    type,
    purposes: rng() < 0.2 ? ['buy-to-let'] : ['purchase', 'remortgage', ...(rng() < 0.5 ? (['buy-to-let'] as const) : [])],
    initialPeriodMonths: years * 12,
    rates: bands.map((maxLtvPercent, band) => ({
      maxLtvPercent,
      ratePercent: Math.max(0.1, Math.round((base + [0, 0.2, 0.45, 0.7, 1][band]!) * 100) / 100),
    })),
    reversionRatePercent: Math.round((6.5 + rng() * 1.7) * 100) / 100,
    fee,
    ...(feePounds > 0 && rng() < 0.5 ? { feeFreePremiumPercent: pick(rng, [0.2, 0.3, 0.4]) } : {}),
    ercPercentByYear: years === 2 ? [2, 1] : [5, 4, 3, 2, 1],
    minLoanPounds: 25_000,
    maxLoanPounds: pick(rng, [1_000_000, 1_500_000, 2_000_000]),
    discretion: {
      rateReductionPercent: pick(rng, [0, 0.1, 0.15, 0.2, 0.25, 0.3]),
      ...(rng() < 0.4 ? { lowLtvPercent: pick(rng, [60, 75]) } : {}),
      ...(rng() < 0.3 ? { largeLoanPounds: 500_000 } : {}),
      feeReductionPounds: fee.kind === 'pounds' ? pick(rng, [0, Math.floor(feePounds / 2), feePounds]) : pick(rng, [0, 500, 999]),
      cashbackPounds: pick(rng, [0, 0, 250, 500, 1000]),
    },
  };
}

function between(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}
