import { firmOf, type DomainEvent } from '@pf/events';
import { applyAgent, classifyDeal, classifyOffer, type AgentFact, type CriteriaVersion } from './agent-facts';
import { applyDealLifecycle } from './deal-lifecycle';

export type { AgentFact } from './agent-facts';
export { keysOfBatch, type BatchKeys } from './batch-keys';

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
const earliest = (current: string | null, at: string) => (current !== null && current <= at ? current : at);

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

/**
 * Applies one event to the facts, in place (pure apart from the maps it is given). Every step keeps its earliest
 * time and every row is made by whichever of its events comes first, so the fold is idempotent and gives the same
 * rows whatever the interleaving of streams (Kafka keeps order per stream only).
 */
export function applyFact(state: FactsState, touched: Touched, event: DomainEvent, at: string): void {
  switch (event.type) {
    case 'AgentUpdated':
      applyAgent(state, touched, { agentId: event.data.agentId, name: event.data.name, criteria: event.data.criteria }, at);
      return;
    case 'AgentCreated': {
      // Its firm too (firmOf: its owner's firm of one before firms).
      applyAgent(state, touched, { ...event.data, firmId: firmOf(event.data) }, at);
      if (event.data.type !== 'borrower') return;
      const lead = state.leads.get(event.data.agentId) ?? {
        agentId: event.data.agentId,
        createdAt: null,
        qualifiedAt: null,
        proposedAt: null,
        agreedAt: null,
        completedAt: null,
      };
      if (lead.createdAt !== null) return;
      state.leads.set(lead.agentId, { ...lead, createdAt: at });
      touched.leads.add(lead.agentId);
      return;
    }
    case 'MatchFound':
      reachStep(state, touched, event.data.borrowerAgentId, 'qualifiedAt', at);
      return;
    case 'ConversationStarted': {
      if (state.negotiations.has(event.data.conversationId)) return;
      const agentOf = (type: string) => event.data.participants.find((p) => p.type === type)?.agentId ?? null;
      state.negotiations.set(event.data.conversationId, {
        conversationId: event.data.conversationId,
        startedAt: at,
        borrowerAgentId: agentOf('borrower'),
        lenderAgentId: agentOf('lender'),
        brokerAgentId: agentOf('broker'),
        firstOfferAt: null,
        completedAt: null,
        outcome: null,
      });
      touched.negotiations.add(event.data.conversationId);
      return;
    }
    case 'OfferMade': {
      // The conversation's own stream: its ConversationStarted always comes first.
      const negotiation = state.negotiations.get(event.data.conversationId);
      if (negotiation && !negotiation.firstOfferAt) {
        state.negotiations.set(negotiation.conversationId, { ...negotiation, firstOfferAt: at });
        touched.negotiations.add(negotiation.conversationId);
      }
      const borrower = negotiation?.borrowerAgentId ?? null;
      reachStep(state, touched, borrower, 'proposedAt', at);
      if (!state.offers.has(event.data.offerId)) {
        state.offers.set(event.data.offerId, {
          offerId: event.data.offerId,
          conversationId: event.data.conversationId,
          at,
          interestRate: event.data.terms.interestRate,
          borrowerAgentId: borrower,
          region: null,
        });
        touched.offers.add(event.data.offerId);
        classifyOffer(state, touched, event.data.offerId);
      }
      return;
    }
    case 'ConversationCompleted': {
      const negotiation = state.negotiations.get(event.data.conversationId);
      if (!negotiation || negotiation.completedAt) return;
      state.negotiations.set(negotiation.conversationId, { ...negotiation, completedAt: at, outcome: event.data.outcome });
      touched.negotiations.add(negotiation.conversationId);
      return;
    }
    case 'DealAgreed': {
      const deal = event.data;
      // Folding it again changes nothing: every field is the event's or merged by earliest time.
      const opened = state.deals.get(deal.dealId);
      state.deals.set(deal.dealId, {
        dealId: deal.dealId,
        conversationId: deal.conversationId,
        // Its deal stream may have been folded first (DealOpened, stages, status): keep what it said of the deal's life.
        agreedAt: earliest(opened?.agreedAt ?? null, at),
        borrowerAgentId: deal.borrowerAgentId,
        lenderAgentId: deal.lenderAgentId,
        brokerAgentId: deal.brokerAgentId,
        region: opened?.region ?? null,
        loanType: opened?.loanType ?? 'Residential',
        propertyValue: deal.propertyValue,
        loanAmount: deal.loanAmount,
        interestRate: deal.interestRate,
        arrangementFee: deal.arrangementFee,
        status: opened?.status ?? 'agreed',
        stage: opened?.stage ?? null,
        stageTimes: opened?.stageTimes ?? {},
        completedAt: opened?.completedAt ?? null,
        procurationFee: deal.brokerAgentId !== null ? (deal.procurationFee ?? opened?.procurationFee ?? null) : null,
      });
      touched.deals.add(deal.dealId);
      classifyDeal(state, touched, deal.dealId);
      reachStep(state, touched, deal.borrowerAgentId, 'agreedAt', at);
      return;
    }
    case 'DealOpened':
    case 'DealStageChanged':
    case 'DealStatusChanged':
      applyDealLifecycle(state, touched, event, at);
      return;
    default:
      return;
  }
}
