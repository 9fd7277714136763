import type { DomainEvent, ServerPush } from '@pf/events';
import { agentViewOf, conversationViewFor, messageViewOf, type ViewIndex } from './view-index';

type WithoutPosition<T> = T extends unknown ? Omit<T, 'position' | 'previousPosition'> : never;
/** A push before the socket stamps it with its position and the previous one it sent. */
export type PushBody = WithoutPosition<ServerPush>;

/**
 * Who is told about an event, and what. Light pushes (agents, a conversation's mode or status, stats)
 * reach every socket of an entitled user so lists stay current; messages reach only the sockets
 * following that conversation (subscribe), since only a conversation's page shows them.
 */
export interface Delivery {
  readonly users: readonly string[];
  readonly onlyFollowersOf?: number;
  body(userId: string): PushBody;
}

const unique = (ids: Iterable<string | undefined>) => [...new Set([...ids].filter((id): id is string => !!id))];

function agentDeliveries(index: ViewIndex, agentId: number, statsChanged: boolean): Delivery[] {
  const owner = index.agentOwners.get(agentId);
  if (!owner) return [];
  const agent = index.agents.get(agentId);
  const view = agent ? agentViewOf(agent) : null;
  const deliveries: Delivery[] = [
    { users: [owner], body: () => ({ type: 'agent_updated', agentId, agent: view }) },
  ];
  if (statsChanged) deliveries.push(statsDelivery([owner]));
  return deliveries;
}

function conversationDelivery(index: ViewIndex, conversationId: number): Delivery[] {
  const conversation = index.conversations.get(conversationId);
  if (!conversation) return [];
  return [
    {
      users: [...conversation.owners],
      body: (userId) => ({ type: 'conversation_updated', conversation: conversationViewFor(conversation, userId) }),
    },
  ];
}

function statsDelivery(users: readonly string[]): Delivery {
  return { users, body: () => ({ type: 'stats_changed' }) };
}

/**
 * The pushes an event gives, built from the index as it stands (after the event when live; the
 * latest state when replaying for a resume, so a replayed view is never older than one pushed before).
 * One event may give several pushes with the same position; they differ in type.
 */
export function deliveriesFor(index: ViewIndex, event: DomainEvent, at: string): Delivery[] {
  switch (event.type) {
    case 'AgentCreated':
    case 'AgentPaused':
    case 'AgentResumed':
    case 'AgentDeleted':
      return agentDeliveries(index, event.data.agentId, true);
    case 'AgentUpdated':
      return agentDeliveries(index, event.data.agentId, false);
    case 'ConversationStarted':
    case 'ConversationCompleted': {
      const conversation = index.conversations.get(event.data.conversationId);
      if (!conversation) return [];
      return [...conversationDelivery(index, conversation.id), statsDelivery([...conversation.owners])];
    }
    case 'ManualModeChanged':
      return conversationDelivery(index, event.data.conversationId);
    case 'MessageSent': {
      const conversation = index.conversations.get(event.data.conversationId);
      if (!conversation) return [];
      const message = messageViewOf(conversation, event.data, at);
      return [
        {
          users: [...conversation.owners],
          onlyFollowersOf: conversation.id,
          body: () => ({ type: 'message_created', conversationId: conversation.id, message }),
        },
      ];
    }
    case 'MatchFound':
    case 'DealAgreed': {
      const { borrowerAgentId, lenderAgentId, brokerAgentId } = event.data;
      const owners = unique(
        [borrowerAgentId, lenderAgentId, brokerAgentId].map((id) => (id === null ? undefined : index.agentOwners.get(id))),
      );
      return owners.length > 0 ? [statsDelivery(owners)] : [];
    }
    case 'OfferMade':
    case 'OfferAccepted':
    case 'OfferRejected':
      return [];
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}
