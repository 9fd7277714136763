/**
 * The rows the analytics facts fold keeps, and the one rule every part of the fold follows when a borrower reaches a
 * step: its first time stands. facts.ts folds events into these, with agent-facts.ts (agents and their criteria)
 * and deal-lifecycle.ts (a deal after its agreement).
 */

/** The facts one analytics row holds (times as ISO strings). */
export interface DealFact {
  dealId: string;
  conversationId: number | null;
  agreedAt: string;
  borrowerAgentId: number;
  lenderAgentId: number;
  brokerAgentId: number | null;
  region: string | null;
  loanType: string;
  propertyValue: number;
  loanAmount: number;
  interestRate: number;
  arrangementFee: number;
  status: string;
  stage: string | null;
  stageTimes: Record<string, string>;
  completedAt: string | null;
  /** The lender's procuration fee to the introducing broker, pounds, as DealAgreed (or DealOpened) records it; null without one. */
  procurationFee: number | null;
}
export interface NegotiationFact {
  conversationId: number;
  startedAt: string;
  borrowerAgentId: number | null;
  lenderAgentId: number | null;
  brokerAgentId: number | null;
  firstOfferAt: string | null;
  completedAt: string | null;
  outcome: string | null;
}
/** A borrower agent and the first time it reached each step; createdAt is null until its AgentCreated is seen. */
export interface LeadFact {
  agentId: number;
  createdAt: string | null;
  qualifiedAt: string | null;
  proposedAt: string | null;
  agreedAt: string | null;
  completedAt: string | null;
}
export interface OfferFact {
  offerId: string;
  conversationId: number;
  at: string;
  interestRate: number;
  borrowerAgentId: number | null;
  region: string | null;
}

/** An agent as the analytics screens name and classify it (a lender's criteria label), as it stands now. */
export interface AgentFact {
  agentId: number;
  type: string;
  name: string;
  criteria: unknown;
  /** From its AgentCreated (null until that is seen): whose words its name and criteria are (account-deleted.ts). */
  ownerId: string | null;
  /** Its owner's firm (firmOf), for the firm's own analytics and the market's threshold of distinct firms. */
  firmId: string | null;
}

/** One version of an agent's criteria and when it took effect: a deal or offer is classified by the one in force at its time. */
export interface CriteriaVersion {
  at: string;
  criteria: unknown;
}

/**
 * What the facts fold reads and changes: the rows loaded for the batch. The fold keeps the agents (names, and
 * every version of their criteria) itself rather than reading the agents read model: it is run by the
 * analytics consumer, which is not in step with the projector.
 */
export interface FactsState {
  deals: Map<string, DealFact>;
  negotiations: Map<number, NegotiationFact>;
  leads: Map<number, LeadFact>;
  offers: Map<string, OfferFact>;
  agents: Map<number, AgentFact>;
  versions: Map<number, CriteriaVersion[]>;
}

/** Touched keys, so only changed rows are written back. */
export interface Touched {
  deals: Set<string>;
  negotiations: Set<number>;
  leads: Set<number>;
  offers: Set<string>;
  agents: Set<number>;
  versions: Set<number>;
}

/** The earlier of two times: a step keeps its first time whatever order its events arrive in. */
export const earliest = (current: string | null, at: string) => (current !== null && current <= at ? current : at);

type Step = 'qualifiedAt' | 'proposedAt' | 'agreedAt' | 'completedAt';

/**
 * A borrower reached a step. The lead's row is made if its AgentCreated has not been seen yet (from Kafka an
 * agent's stream and a match's or deal's arrive in either order); such a row counts in no funnel until it is.
 */
export function reachStep(state: FactsState, touched: Touched, agentId: number | null, step: Step, at: string): void {
  if (agentId === null) return;
  const lead = state.leads.get(agentId) ?? {
    agentId,
    createdAt: null,
    qualifiedAt: null,
    proposedAt: null,
    agreedAt: null,
    completedAt: null,
  };
  const time = earliest(lead[step], at);
  if (state.leads.has(agentId) && time === lead[step]) return;
  state.leads.set(agentId, { ...lead, [step]: time });
  touched.leads.add(agentId);
}
