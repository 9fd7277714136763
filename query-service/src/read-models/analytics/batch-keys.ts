import type { DomainEvent } from '@pf/events';
import { lifecycleKeys } from './deal-lifecycle';

/** The conversations, borrower agents, deals and offers a batch names, to load before folding it. */
export interface BatchKeys {
  conversations: number[];
  agents: number[];
  deals: string[];
  offers: string[];
  /** Agents with a new version of their criteria: every deal and offer they borrowed on is classified again. */
  reclassify: number[];
}

export function keysOfBatch(events: readonly DomainEvent[]): BatchKeys {
  const conversations = new Set<number>();
  const agents = new Set<number>();
  const deals = new Set<string>();
  const offers = new Set<string>();
  const reclassify = new Set<number>();
  for (const event of events) {
    switch (event.type) {
      case 'AgentCreated':
      case 'AgentUpdated':
        agents.add(event.data.agentId);
        reclassify.add(event.data.agentId);
        break;
      case 'MatchFound':
        agents.add(event.data.borrowerAgentId);
        break;
      case 'ConversationStarted':
        conversations.add(event.data.conversationId);
        for (const p of event.data.participants) agents.add(p.agentId);
        break;
      case 'OfferMade':
        conversations.add(event.data.conversationId);
        offers.add(event.data.offerId);
        break;
      case 'ConversationCompleted':
        conversations.add(event.data.conversationId);
        break;
      case 'DealAgreed':
        deals.add(event.data.dealId);
        agents.add(event.data.borrowerAgentId);
        break;
      case 'DealOpened':
      case 'DealStageChanged':
      case 'DealStatusChanged': {
        const keys = lifecycleKeys(event);
        deals.add(keys.deal);
        if (keys.agent !== null) agents.add(keys.agent);
        break;
      }
      default:
        break;
    }
  }
  return { conversations: [...conversations], agents: [...agents], deals: [...deals], offers: [...offers], reclassify: [...reclassify] };
}
