/**
 * The market a negotiation is priced in, from the configuration, and a case's terms at list price: what the lender's
 * agent opens at (docs/behaviour/negotiation.md, "Bespoke pricing"), and what completes the figures a person's
 * message does not state before either side has offered. The automation and the command side price a case the same
 * way, from the same agents' facts.
 */
import { productRangeOf, type AgentType, type BorrowerNeeds, type Criteria, type LoanTerms, type ProductRange } from '@pf/events';
import type { Config } from '@pf/infra';
import { DEFAULT_LENDING_RULES, type LendingRules } from './lending-rules';
import { ladder, termsAt } from './pricing';
import { bestLine, negotiatedNeeds, type Market } from './setup';

export function marketOf(
  config: Pick<Config, 'LENDING_INCOME_MULTIPLE' | 'LENDING_INTEREST_COVER' | 'LENDING_STRESSED_RATE' | 'BANK_RATE_PERCENT'>,
): Market & { rules: LendingRules } {
  return {
    bankRatePercent: config.BANK_RATE_PERCENT,
    rules: {
      ...DEFAULT_LENDING_RULES,
      incomeMultiple: config.LENDING_INCOME_MULTIPLE,
      interestCover: config.LENDING_INTEREST_COVER,
      stressedRate: config.LENDING_STRESSED_RATE,
    },
  };
}

/** An agent's facts as pricing reads them (the agents view's and the agent decider's alike). */
interface PricedAgent {
  agentId: number;
  name: string;
  type: AgentType;
  criteria: Criteria | null;
  products?: ProductRange | null;
  needs?: BorrowerNeeds | null;
}

/** The case's terms at list price (its opening point), or null when there is nothing to price. */
export function listTermsOf(borrower: PricedAgent | null, lender: PricedAgent | null, market: Market): LoanTerms | null {
  if (!borrower || !lender) return null;
  const { priced } = bestLine(
    { agentId: borrower.agentId, needs: negotiatedNeeds(borrower, lender.criteria), criteria: borrower.criteria },
    { agentId: lender.agentId, name: lender.name, range: productRangeOf(lender), criteria: lender.criteria },
    market,
  );
  const opening = priced ? ladder(priced)[0] : undefined;
  return priced && opening ? termsAt(priced, opening) : null;
}
