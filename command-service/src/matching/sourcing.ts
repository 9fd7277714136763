/**
 * The matcher's sourcing (docs/behaviour/products.md, "Sourcing"): a borrower's needs against every product of every
 * lender it may meet, through the one sourcing module in events/, with the lenders' affordability rules. A borrower
 * whose needs are recorded negotiates with the shortlist only (the cheapest few lenders by true cost).
 */
import {
  mayMeet,
  needsOf,
  productRangeOf,
  readCriteria,
  source,
  sourcingResultOf,
  DEFAULT_BANK_RATE_PERCENT,
  type SourcedProduct,
  type SourcingResult,
} from '@pf/events';
import { DEFAULT_LENDING_RULES } from '../automation/negotiation/lending-rules';
import type { MatchableAgent, MatchSettings } from './matchable';

function sourceFor(
  borrower: MatchableAgent,
  agents: readonly MatchableAgent[],
  settings: Pick<MatchSettings, 'rules' | 'bankRatePercent'>,
): SourcedProduct[] | null {
  const needs = needsOf(borrower);
  if (!needs) return null;
  const lenders = agents.flatMap((agent) => {
    if (agent.type !== 'lender' || !agent.isActive || !mayMeet(borrower, agent)) return [];
    const range = productRangeOf(agent);
    return range ? [{ agentId: agent.agentId, name: agent.name, range, criteria: readCriteria(agent.criteria) }] : [];
  });
  return source(
    needs,
    readCriteria(borrower.criteria),
    lenders,
    settings.bankRatePercent ?? DEFAULT_BANK_RATE_PERCENT,
    settings.rules ?? DEFAULT_LENDING_RULES,
  );
}

/** What a Match for this agent records: its sourcing when it is a borrower with a profile, else nothing (shortlist of maxOpenConversations). */
export function sourcingOf(agent: MatchableAgent, agents: readonly MatchableAgent[], settings: MatchSettings): SourcingResult | null {
  const sourced = agent.type === 'borrower' ? sourceFor(agent, agents, settings) : null;
  return sourced ? sourcingResultOf(sourced, settings.maxOpenConversations) : null;
}

/** The lenders a borrower with recorded needs may be matched with (its shortlist); null: no restriction (older agents). */
export function shortlistedLenders(
  borrower: MatchableAgent,
  agents: readonly MatchableAgent[],
  settings: MatchSettings,
): Set<number> | null {
  if (!borrower.needs) return null;
  return new Set(sourcingOf(borrower, agents, settings)?.shortlist ?? []);
}
