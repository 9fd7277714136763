import { loanTypeOfCriteria, regionOfCriteria } from '@pf/events';
import type { AgentFact, FactsState, Touched } from './fact-state';

/** The criteria in force for `agentId` at `at` (the latest version at or before it); null when none was. */
function criteriaAt(state: FactsState, agentId: number, at: string): unknown {
  let found: unknown = null;
  for (const version of state.versions.get(agentId) ?? []) if (version.at <= at) found = version.criteria;
  return found;
}

/** Sets a deal's region and loan type from its borrower's criteria in force when it was agreed. */
export function classifyDeal(state: FactsState, touched: Touched, dealId: string): void {
  const deal = state.deals.get(dealId)!;
  const criteria = criteriaAt(state, deal.borrowerAgentId, deal.agreedAt);
  const region = regionOfCriteria(criteria);
  const loanType = loanTypeOfCriteria(criteria);
  if (deal.region === region && deal.loanType === loanType) return;
  state.deals.set(dealId, { ...deal, region, loanType });
  touched.deals.add(dealId);
}

/** Sets an offer's region from its borrower's criteria in force when it was made. */
export function classifyOffer(state: FactsState, touched: Touched, offerId: string): void {
  const offer = state.offers.get(offerId)!;
  if (offer.borrowerAgentId === null) return;
  const region = regionOfCriteria(criteriaAt(state, offer.borrowerAgentId, offer.at));
  if (offer.region === region) return;
  state.offers.set(offerId, { ...offer, region });
  touched.offers.add(offerId);
}

/**
 * Classifies every deal and offer of the borrower again: run when a version of its criteria is folded. A deal or
 * offer is classified by itself when folded (classifyDeal, classifyOffer); the events of an agent's stream and
 * those of its deals may arrive in either order (Kafka keeps order per stream only), and either way the rows end
 * up the same.
 */
function classify(state: FactsState, touched: Touched, borrowerAgentId: number): void {
  for (const deal of state.deals.values()) if (deal.borrowerAgentId === borrowerAgentId) classifyDeal(state, touched, deal.dealId);
  for (const offer of state.offers.values()) if (offer.borrowerAgentId === borrowerAgentId) classifyOffer(state, touched, offer.offerId);
}

/** AgentCreated and AgentUpdated: the agent as it now stands, and a new version of its criteria. */
export function applyAgent(
  state: FactsState,
  touched: Touched,
  agent: Pick<AgentFact, 'agentId' | 'name' | 'criteria'> & Partial<Pick<AgentFact, 'type' | 'ownerId' | 'firmId'>>,
  at: string,
): void {
  const known = state.agents.get(agent.agentId);
  const type = agent.type ?? known?.type;
  if (type === undefined) return; // an update of an agent never created: nothing to name or classify
  state.agents.set(agent.agentId, {
    agentId: agent.agentId,
    type,
    name: agent.name,
    criteria: agent.criteria,
    ownerId: agent.ownerId ?? known?.ownerId ?? null,
    firmId: agent.firmId ?? known?.firmId ?? null,
  });
  touched.agents.add(agent.agentId);
  const versions = state.versions.get(agent.agentId) ?? [];
  if (!versions.some((v) => v.at === at)) {
    state.versions.set(
      agent.agentId,
      [...versions, { at, criteria: agent.criteria }].sort((a, b) => a.at.localeCompare(b.at)),
    );
    touched.versions.add(agent.agentId);
  }
  if (type === 'borrower') classify(state, touched, agent.agentId);
}
