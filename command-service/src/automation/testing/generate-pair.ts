/**
 * Generated borrower–lender pairs for the property tests and the tournament: criteria written the way people
 * write them (mixed formats, some left blank), private weights, reservation values and strategies. Lenders
 * name wider ranges than borrowers, as they do; a bit under half of the pairs have a zone of agreement.
 */
import type { Criteria } from '@pf/events';
import { CONCESSION_STRATEGIES } from '@pf/events';
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

export function generatePair(rng: Rng, firstAgentId = 1): GeneratedPair {
  const market = { value: between(rng, 100, 1500) * 1000, rate: between(rng, 250, 650) / 100, term: between(rng, 8, 28) };
  return {
    borrower: party(rng, firstAgentId, market, 1),
    lender: party(rng, firstAgentId + 1, market, 2),
  };
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
