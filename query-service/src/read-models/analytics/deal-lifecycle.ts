import type { EventOf } from '@pf/events';
import { classifyDeal } from './agent-facts';
import { reachStep, type FactsState, type Touched } from './fact-state';

/** A deal's life after its terms are agreed (docs/behaviour/deals.md). */
export type LifecycleEvent = EventOf<'DealOpened' | 'DealStageChanged' | 'DealStatusChanged'>;

/** The deal and the borrower agent a lifecycle event names, to load before folding. */
export function lifecycleKeys(event: LifecycleEvent): { deal: string; agent: number | null } {
  return { deal: event.data.dealId, agent: event.type === 'DealOpened' ? event.data.borrower.agentId : null };
}

/**
 * Opens a deal that no negotiation agreed (New Deal) and records each stage's first time and completion; a
 * completed deal's borrower counts as a Completion in the funnel. Repeats change nothing.
 */
export function applyDealLifecycle(state: FactsState, touched: Touched, event: LifecycleEvent, at: string): void {
  const deal = state.deals.get(event.data.dealId);
  if (event.type === 'DealOpened') {
    const d = event.data;
    if (deal) {
      // Agreed by a negotiation and now opened: the deal's first stage (application) starts here, and it is active.
      if (deal.stageTimes.application) return;
      const status = deal.status === 'agreed' ? 'active' : deal.status;
      state.deals.set(d.dealId, {
        ...deal,
        status,
        stage: deal.stage ?? 'application',
        stageTimes: { ...deal.stageTimes, application: at },
      });
    } else {
      // Opened by hand (New Deal), or its DealAgreed (another stream) not seen yet: that event merges in later.
      state.deals.set(d.dealId, {
        dealId: d.dealId,
        conversationId: d.agreedInConversationId,
        agreedAt: at,
        borrowerAgentId: d.borrower.agentId,
        lenderAgentId: d.lender.agentId,
        brokerAgentId: d.broker?.agentId ?? null,
        region: null,
        loanType: 'Residential',
        propertyValue: d.propertyValue,
        loanAmount: d.loanAmount,
        interestRate: d.interestRate,
        arrangementFee: d.arrangementFee,
        status: 'active',
        stage: 'application',
        stageTimes: { application: at },
        completedAt: null,
        procurationFee: d.broker !== null ? (d.procurationFee ?? null) : null,
      });
    }
    touched.deals.add(d.dealId);
    classifyDeal(state, touched, d.dealId);
    return;
  }
  if (!deal) return;
  if (event.type === 'DealStageChanged') {
    if (deal.stageTimes[event.data.stage]) return;
    state.deals.set(deal.dealId, { ...deal, stage: event.data.stage, stageTimes: { ...deal.stageTimes, [event.data.stage]: at } });
    touched.deals.add(deal.dealId);
    return;
  }
  const completed = event.data.status === 'completed';
  if (deal.status === event.data.status && (!completed || deal.completedAt)) return;
  state.deals.set(deal.dealId, {
    ...deal,
    status: event.data.status,
    completedAt: completed ? (deal.completedAt ?? at) : deal.completedAt,
  });
  touched.deals.add(deal.dealId);
  if (completed) reachStep(state, touched, deal.borrowerAgentId, 'completedAt', at);
}
