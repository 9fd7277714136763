import type {
  AgentType,
  AgentView,
  ConcessionStrategy,
  ConversationOutcome,
  ConversationView,
  Criteria,
  DomainEvent,
  MessageView,
  Participant,
} from '@pf/events';

/**
 * What the gateway remembers of the event stream: enough to decide who may see an event and to
 * build the views it pushes. Each gateway copy builds its own from the stream (no shared memory).
 */
export interface AgentEntry {
  id: number;
  ownerId: string;
  name: string;
  type: AgentType;
  description: string;
  criteria: Criteria | null;
  strategy: ConcessionStrategy | null;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ConversationEntry {
  id: number;
  title: string;
  participants: Participant[];
  owners: ReadonlySet<string>;
  status: 'active' | 'completed';
  outcome: ConversationOutcome | null;
  isManualMode: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ViewIndex {
  readonly agents: Map<number, AgentEntry>;
  /** Owners outlive their agents: a deleted agent's conversations stay visible to its owner. */
  readonly agentOwners: Map<number, string>;
  readonly conversations: Map<number, ConversationEntry>;
}

export function emptyIndex(): ViewIndex {
  return { agents: new Map(), agentOwners: new Map(), conversations: new Map() };
}

/** Folds one event into the index. No I/O; `at` is the event's recorded time as an ISO string. */
export function applyEvent(index: ViewIndex, event: DomainEvent, at: string): void {
  switch (event.type) {
    case 'AgentCreated': {
      const { agentId, ownerId, name, type, description, criteria, strategy } = event.data;
      index.agents.set(agentId, {
        id: agentId,
        ownerId,
        name,
        type,
        description,
        criteria,
        strategy: strategy ?? null,
        isActive: true,
        createdAt: at,
        updatedAt: at,
      });
      index.agentOwners.set(agentId, ownerId);
      return;
    }
    case 'AgentUpdated': {
      const agent = index.agents.get(event.data.agentId);
      if (!agent) return;
      agent.name = event.data.name;
      agent.description = event.data.description;
      agent.criteria = event.data.criteria;
      if (event.data.strategy) agent.strategy = event.data.strategy;
      agent.updatedAt = at;
      return;
    }
    case 'AgentPaused':
    case 'AgentResumed': {
      const agent = index.agents.get(event.data.agentId);
      if (!agent) return;
      agent.isActive = event.type === 'AgentResumed';
      agent.updatedAt = at;
      return;
    }
    case 'AgentDeleted':
      index.agents.delete(event.data.agentId);
      return;
    case 'ConversationStarted': {
      const { conversationId, title, participants } = event.data;
      index.conversations.set(conversationId, {
        id: conversationId,
        title,
        participants,
        owners: new Set(participants.map((participant) => participant.ownerId)),
        status: 'active',
        outcome: null,
        isManualMode: false,
        createdAt: at,
        updatedAt: at,
      });
      return;
    }
    case 'ManualModeChanged': {
      const conversation = index.conversations.get(event.data.conversationId);
      if (!conversation) return;
      conversation.isManualMode = event.data.isManualMode;
      conversation.updatedAt = at;
      return;
    }
    case 'MessageSent': {
      const conversation = index.conversations.get(event.data.conversationId);
      if (conversation) conversation.updatedAt = at;
      return;
    }
    case 'ConversationCompleted': {
      const conversation = index.conversations.get(event.data.conversationId);
      if (!conversation) return;
      conversation.status = 'completed';
      conversation.outcome = event.data.outcome;
      conversation.updatedAt = at;
      return;
    }
    case 'OfferMade':
    case 'OfferAccepted':
    case 'OfferRejected':
    case 'MatchFound':
    case 'DealAgreed':
      return;
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}

export function canSeeConversation(index: ViewIndex, conversationId: number, userId: string): boolean {
  return index.conversations.get(conversationId)?.owners.has(userId) ?? false;
}

export function agentViewOf(agent: AgentEntry): AgentView {
  return {
    id: agent.id,
    name: agent.name,
    type: agent.type,
    description: agent.description,
    criteria: agent.criteria,
    strategy: agent.strategy,
    isActive: agent.isActive,
    createdAt: agent.createdAt,
    updatedAt: agent.updatedAt,
  };
}

/** isMine is relative to the user receiving the view. */
export function conversationViewFor(conversation: ConversationEntry, userId: string): ConversationView {
  return {
    id: conversation.id,
    title: conversation.title,
    status: conversation.status,
    outcome: conversation.outcome,
    isManualMode: conversation.isManualMode,
    participants: conversation.participants.map((participant) => ({
      agentId: participant.agentId,
      name: participant.name,
      type: participant.type,
      isMine: participant.ownerId === userId,
    })),
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
  };
}

/** The sender's name and type are those it had when the conversation started, as its participants list says. */
export function messageViewOf(
  conversation: ConversationEntry,
  message: Extract<DomainEvent, { type: 'MessageSent' }>['data'],
  at: string,
): MessageView {
  const sender = conversation.participants.find((participant) => participant.agentId === message.fromAgentId);
  return {
    id: message.messageId,
    conversationId: message.conversationId,
    fromAgentId: message.fromAgentId,
    toAgentId: message.toAgentId,
    fromAgentName: sender?.name ?? `Agent #${message.fromAgentId}`,
    fromAgentType: sender?.type ?? 'borrower',
    content: message.content,
    isAutomated: message.isAutomated,
    createdAt: at,
  };
}
