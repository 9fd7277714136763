import { firmOf, type DomainEvent } from '@pf/events';
import { applyAgent, classifyDeal, classifyOffer } from './agent-facts';
import { applyDealLifecycle } from './deal-lifecycle';
import { earliest, reachStep, type FactsState, type Touched } from './fact-state';

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
