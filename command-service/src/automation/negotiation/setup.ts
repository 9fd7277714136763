/**
 * What a negotiation is about and who negotiates it (docs/behaviour/negotiation.md, "Bespoke pricing"): the lender's
 * best line for the borrower's needs from sourcing (its cheapest line that can be offered, by true cost over the
 * initial period; a fee-free alternative is a line), the borrower's reservation (the true cost of its next-best
 * line with another lender, else list price) and each side's concession strategy. Pure and deterministic, so a
 * process manager rebuilds the same setup from the agents' events at any time.
 *
 * Agents made before products are read through the one upgrade (products.md, "Older agents"): needs and a range
 * from their criteria; a borrower whose criteria name no loan borrows as the engine assumed before products
 * (negotiatedNeeds). When there is still no range or no line that can be offered, there is nothing to price: the
 * setup says why, and the negotiation ends at its first move with that reason.
 */
import {
  DEFAULT_BANK_RATE_PERCENT,
  needsOf,
  needsOnCriteria,
  readCriteria,
  source,
  type AffordabilityRules,
  type BorrowerNeeds,
  type ConcessionStrategy,
  type Criteria,
  type ProductRange,
  type SourcedProduct,
  type SourcingLender,
} from '@pf/events';
import { DEFAULT_LENDING_RULES } from './lending-rules';
import { dealPropertyValue } from './property-value';
import { ladder, pricedCase, trueCostAt, type PricedCase } from './pricing';

export type Side = 'borrower' | 'lender';

export function otherSide(side: Side): Side {
  return side === 'borrower' ? 'lender' : 'borrower';
}

export interface BorrowerInput {
  agentId: number;
  /** As recorded, or upgraded from criteria (needsOf); null: none. */
  needs: BorrowerNeeds | null;
  criteria: Criteria | null;
  strategy?: ConcessionStrategy;
  /** The other lenders it may meet (with their ranges): its next-best line among them is its reservation. */
  alternatives?: readonly SourcingLender[];
  /**
   * Or their lines as sourcing ranked them already (any lender's, this one's included: they are passed over), so a
   * caller pricing several conversations of one borrower sources its market once.
   */
  sourced?: readonly SourcedProduct[];
}

export interface LenderInput {
  agentId: number;
  name?: string;
  /** As recorded, or upgraded from criteria (productRangeOf); null: none. */
  range: ProductRange | null;
  criteria: Criteria | null;
  strategy?: ConcessionStrategy;
}

export interface Market {
  bankRatePercent: number;
  rules: AffordabilityRules;
}

export const DEFAULT_MARKET: Market = { bankRatePercent: DEFAULT_BANK_RATE_PERCENT, rules: DEFAULT_LENDING_RULES };

/** Boulware for lenders (hold firm until late), Conceder for borrowers (give ground early). */
const DEFAULT_STRATEGY: Record<Side, ConcessionStrategy> = { borrower: 'conceder', lender: 'boulware' };

interface BorrowerProfile {
  agentId: number;
  side: 'borrower';
  strategy: ConcessionStrategy;
  /** The most true cost over the initial period it will agree (pounds): its alternative's, or list price. */
  reservation: number;
  /** Its next-best line with another lender for the same initial period, if any. */
  alternative: { lenderAgentId: number; productName: string; trueCost: number } | null;
}

interface LenderProfile {
  agentId: number;
  side: 'lender';
  strategy: ConcessionStrategy;
}

export interface NegotiationSetup {
  borrower: BorrowerProfile;
  lender: LenderProfile;
  brokerAgentId: number | null;
  /** What the lender pays the introducing broker, percent of the loan (docs/behaviour/products.md); 0 when none. */
  procurationFeePercent: number;
  /** The case priced; null when there is nothing to price (`noProduct` says why). */
  priced: PricedCase | null;
  noProduct: string | null;
  /** The true cost at list price (the opening) and at the lender's full discretion (its floor), pounds. */
  listTrueCost: number | null;
  floorTrueCost: number | null;
}

export function negotiationSetup(
  borrower: BorrowerInput,
  lender: LenderInput,
  brokerAgentId: number | null = null,
  market: Market = DEFAULT_MARKET,
): NegotiationSetup {
  const line = bestLine(borrower, lender, market);
  const priced = line.priced;
  const points = priced ? ladder(priced) : [];
  const list = priced && points[0] ? trueCostAt(priced, points[0]) : null;
  const floor = priced && points.at(-1) ? trueCostAt(priced, points.at(-1)!) : null;
  const alternative = priced && borrower.needs ? nextBest(borrower, borrower.needs, lender.agentId, priced, market) : null;
  return {
    borrower: {
      agentId: borrower.agentId,
      side: 'borrower',
      strategy: borrower.strategy ?? DEFAULT_STRATEGY.borrower,
      reservation: list === null ? 0 : Math.min(list, alternative?.trueCost ?? list),
      alternative,
    },
    lender: { agentId: lender.agentId, side: 'lender', strategy: lender.strategy ?? DEFAULT_STRATEGY.lender },
    brokerAgentId,
    procurationFeePercent: lender.range?.procurationFeePercent ?? 0,
    priced,
    noProduct: line.reason,
    listTrueCost: list,
    floorTrueCost: floor,
  };
}

/** The share of the property value a borrower whose criteria name no loan is taken to borrow (the middle of 60–85%). */
const ASSUMED_LTV = 0.75;

/**
 * The borrower's needs as the negotiation prices them: as recorded, else upgraded from its criteria (needsOf), else,
 * when its criteria name no loan, 75% of the property value both parties' criteria point to (the middle of the
 * 60–85% loan-to-value the engine bargained over before products), in whole thousands, over the longest term its
 * criteria allow (else 25 years), repayment, the fee paid.
 */
export function negotiatedNeeds(
  borrower: { criteria: Criteria | null; needs?: BorrowerNeeds | null | undefined },
  lenderCriteria: Criteria | null,
): BorrowerNeeds | null {
  const recorded = needsOf({ type: 'borrower', criteria: borrower.criteria, needs: borrower.needs ?? null });
  if (recorded) return recorded;
  const read = readCriteria(borrower.criteria);
  const propertyValue = dealPropertyValue(read, readCriteria(lenderCriteria));
  const buyToLet = read.propertyTypes?.[0] === 'buy-to-let';
  if (buyToLet && read.expectedRentMonthly === null) return null;
  return needsOnCriteria(read, propertyValue, Math.round((propertyValue * ASSUMED_LTV) / 1000) * 1000);
}

/** The lender's cheapest line for these needs that can be offered (pass or warn), as a priced case. */
export function bestLine(
  borrower: BorrowerInput,
  lender: LenderInput,
  market: Market = DEFAULT_MARKET,
): { priced: PricedCase | null; reason: string | null } {
  if (!borrower.needs) return { priced: null, reason: "the borrower's needs are not recorded" };
  if (!lender.range) return { priced: null, reason: 'the lender has no product range' };
  const lines = source(
    borrower.needs,
    readCriteria(borrower.criteria),
    [{ agentId: lender.agentId, name: lender.name ?? '', range: lender.range, criteria: readCriteria(lender.criteria) }],
    market.bankRatePercent,
    market.rules,
  );
  for (const line of lines) {
    if (!line.quote) continue;
    const product = lender.range.products.find((p) => p.id === line.productId);
    const priced = product ? pricedCase(borrower.needs, product, line.feeFree, market.bankRatePercent) : null;
    if (priced) return { priced, reason: null };
  }
  return { priced: null, reason: failureOf(lines) };
}

/** Why no line can be offered, in the sourcing's words (the first failing reason of the first line). */
function failureOf(lines: readonly SourcedProduct[]): string {
  const reason = lines.flatMap((line) => line.reasons).find((r) => r.verdict === 'fail');
  return reason ? reason.detail.charAt(0).toLowerCase() + reason.detail.slice(1) : 'no product fits the needs';
}

/**
 * The borrower's next-best line with another lender it may meet: the cheapest that can be offered for the same initial
 * period, as sourcing systems compare like with like (a 5-year fix's five years of payments are no alternative
 * price for a 2-year fix's two).
 */
function nextBest(
  borrower: BorrowerInput,
  needs: BorrowerNeeds,
  lenderAgentId: number,
  priced: PricedCase,
  market: Market,
): BorrowerProfile['alternative'] {
  const others = (borrower.alternatives ?? []).filter((other) => other.agentId !== lenderAgentId);
  const lines =
    borrower.sourced ??
    (others.length > 0 ? source(needs, readCriteria(borrower.criteria), others, market.bankRatePercent, market.rules) : []);
  const line = lines.find(
    (l) => l.lenderAgentId !== lenderAgentId && l.quote !== null && l.initialPeriodMonths === priced.product.initialPeriodMonths,
  );
  return line?.quote
    ? { lenderAgentId: line.lenderAgentId, productName: line.productName, trueCost: line.quote.trueCostOverInitialPeriod }
    : null;
}
