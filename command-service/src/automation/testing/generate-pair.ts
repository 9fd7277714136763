/**
 * Generated borrower–lender pairs for the property tests and the tournament: criteria written the way people
 * write them (mixed formats, some left blank), private weights, reservation values and strategies. Lenders
 * name wider ranges than borrowers, as they do; a bit under half of the pairs have a zone of agreement.
 *
 * The richer criteria (docs/behaviour/matching.md) were added without narrowing any earlier range: most borrowers state their need (a loan amount, a range,
 * or a deposit) at 50–90% of the price it has in mind, an income of 2.5–5 times it, a property type (a fifth
 * buy-to-let, with a rent covering 100–200% of the stressed interest) and often a region; most lenders state a
 * maximum LTV (60–95%), some the property types and regions they lend in. These draw from the pair's random
 * stream after the earlier criteria, so those are generated exactly as before.
 */
import type { Criteria } from '@pf/events';
import { CONCESSION_STRATEGIES, readCriteria, REGIONS } from '@pf/events';
import type { PartyInput } from '../negotiation/setup';
import { pick, type Rng } from '../rng';

export interface GeneratedPair {
  borrower: PartyInput;
  lender: PartyInput;
}

/** Where a pair's ranges start: both parties start near it, so the pair is plausibly matched. */
interface Market {
  value: number;
  rate: number;
  term: number;
}

/** `lendingCriteria: false` gives the original generator's pairs exactly (the six original criteria only). */
export function generatePair(rng: Rng, firstAgentId = 1, options: { lendingCriteria?: boolean } = {}): GeneratedPair {
  const market = { value: between(rng, 100, 1500) * 1000, rate: between(rng, 250, 650) / 100, term: between(rng, 8, 28) };
  const borrower = party(rng, firstAgentId, market, 1);
  const lender = party(rng, firstAgentId + 1, market, 2);
  if (options.lendingCriteria === false) return { borrower, lender };
  Object.assign(borrower.criteria as Criteria, borrowerExtras(rng, priceOf(borrower.criteria, market.value)));
  Object.assign(lender.criteria as Criteria, lenderExtras(rng));
  return { borrower, lender };
}

/** The price a borrower has in mind: the middle of the values it named, as the deal's property value starts. */
function priceOf(criteria: Criteria | null, fallback: number): number {
  const read = readCriteria(criteria);
  const { min, max } = read.propertyValue;
  return min !== null && max !== null ? (min + max) / 2 : (min ?? max ?? fallback);
}

function borrowerExtras(rng: Rng, price: number): Criteria {
  const extras: Criteria = {};
  const market = { value: Math.round(price / 1000) * 1000 };
  const need = Math.round((market.value * between(rng, 50, 90)) / 100 / 500) * 500;
  const way = rng();
  if (way < 0.4) extras.loanAmount = money(rng, need);
  else if (way < 0.55) extras.loanAmount = `${money(rng, need - between(rng, 5, 40) * 1000)} to ${money(rng, need)}`;
  else if (way < 0.8) extras.deposit = rng() < 0.5 ? money(rng, market.value - need) : `${Math.round((1 - need / market.value) * 100)}%`;
  const buyToLet = rng() < 0.2;
  if (rng() < 0.8)
    extras.propertyType = buyToLet ? pick(rng, ['buy-to-let', 'BTL', 'Buy to let']) : pick(rng, ['residential', 'Residential', 'home']);
  if (buyToLet) {
    const cover = between(rng, 100, 200) / 100;
    const monthly = Math.round((need * 0.055 * cover) / 12 / 25) * 25;
    if (rng() < 0.85)
      extras.expectedRent = pick(rng, [
        `£${monthly.toLocaleString('en-GB')} a month`,
        `£${monthly} pcm`,
        `£${(monthly * 12).toLocaleString('en-GB')} a year`,
      ]);
  } else if (rng() < 0.75) {
    extras.annualIncome = money(rng, Math.round(need / (between(rng, 25, 50) / 10) / 1000) * 1000);
  }
  if (rng() < 0.6) extras.region = pick(rng, REGIONS);
  return extras;
}

function lenderExtras(rng: Rng): Criteria {
  const extras: Criteria = {};
  if (rng() < 0.7) extras.maxLtv = pick(rng, ['60%', '75%', '80%', '85%', '90%', '95%', '80% LTV', '0.85']);
  if (rng() < 0.4) extras.propertyType = pick(rng, ['residential', 'residential, buy-to-let', 'buy-to-let', 'residential, BTL, bridging']);
  if (rng() < 0.3)
    extras.region = pick(rng, ['london', 'leeds, manchester', 'bristol and birmingham', 'nationwide', 'London, Bristol, Leeds']);
  return extras;
}

/** `breadth` widens the ranges a party names (lenders 2, borrowers 1). */
function party(rng: Rng, agentId: number, market: Market, breadth: number): PartyInput {
  const valueMin = Math.max(50_000, market.value + between(rng, -250, 250) * 1000);
  const valueMax = valueMin + between(rng, 50, 300 * breadth) * 1000;
  const rateMin = Math.max(50, Math.round(market.rate * 100) + between(rng, -100, 100)) / 100;
  const rateMax = (Math.round(rateMin * 100) + between(rng, 25, 100 * breadth)) / 100;
  const termMin = Math.max(1, market.term + between(rng, -5, 5));
  const termMax = termMin + between(rng, 2, 6 * breadth);
  const criteria: Criteria = {};
  maybe(rng, () => (criteria.propertyValueMin = money(rng, valueMin)));
  maybe(rng, () => (criteria.propertyValueMax = money(rng, valueMax)));
  maybe(rng, () => (criteria.interestRateMin = rate(rng, rateMin)));
  maybe(rng, () => (criteria.interestRateMax = rate(rng, rateMax)));
  maybe(rng, () => (criteria.loanTermMin = term(rng, termMin)));
  maybe(rng, () => (criteria.loanTermMax = term(rng, termMax)));
  return {
    agentId,
    criteria,
    strategy: pick(rng, CONCESSION_STRATEGIES),
    weights: { interestRate: rng(), termYears: rng(), loanAmount: rng(), arrangementFee: rng() },
    reservation: rng() * 0.3,
  };
}

/** Most criteria are filled in; one in ten is left blank (no limit). */
function maybe(rng: Rng, fill: () => void): void {
  if (rng() < 0.9) fill();
}

function money(rng: Rng, pounds: number): string {
  const formats = [
    () => `£${pounds.toLocaleString('en-GB')}`,
    () => String(pounds),
    () => (pounds % 1000 === 0 ? `${pounds / 1000}k` : String(pounds)),
    () => (pounds >= 1_000_000 ? `£${pounds / 1_000_000}m` : `£${pounds / 1000}k`),
  ];
  return pick(rng, formats)();
}

function rate(rng: Rng, percent: number): string {
  return pick(rng, [`${percent}%`, String(percent), `${percent} %`]);
}

function term(rng: Rng, years: number): string {
  return pick(rng, [`${years} years`, String(years), `${years} yrs`]);
}

function between(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}
