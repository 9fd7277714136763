import type { ConcessionStrategy, DomainEvent, Participant } from '@pf/events';
import type { RecordedEvent } from '@pf/infra';
import type { MatchableAgent, OpenConversation } from '../automation/matching/plan-matches';
import { negotiationSetup } from '../automation/negotiation/setup';
import { evolveNegotiation, initialNegotiationState, type NegotiationState } from '../automation/negotiation/state';

type AgentInfo = MatchableAgent & { deleted: boolean; strategy?: ConcessionStrategy };

export interface ConversationInfo {
  conversationId: number;
  participants: Participant[];
  status: 'active' | 'completed';
  isManualMode: boolean;
  /** The stream version of the last event seen, for the next append's expected version. */
  version: number;
  /** Null when the conversation lacks a borrower or a lender (nothing to negotiate). */
  negotiation: NegotiationState | null;
}

/** What the automated agents know, evolved from the event stream alone (no I/O), so a restart rebuilds it. */
export class AutomationState {
  readonly agents = new Map<number, AgentInfo>();
  readonly conversations = new Map<number, ConversationInfo>();

  observe(recorded: RecordedEvent): void {
    const event = { type: recorded.type, data: recorded.data } as DomainEvent;
    switch (event.type) {
      case 'AgentCreated': {
        const { agentId, ownerId, name, type, criteria, strategy } = event.data;
        this.agents.set(agentId, { agentId, ownerId, name, type, criteria, strategy, isActive: true, deleted: false });
        return;
      }
      case 'AgentUpdated':
        this.patchAgent(event.data.agentId, {
          name: event.data.name,
          criteria: event.data.criteria,
          ...(event.data.strategy ? { strategy: event.data.strategy } : {}),
        });
        return;
      case 'AgentPaused':
      case 'AgentResumed':
        this.patchAgent(event.data.agentId, { isActive: event.type === 'AgentResumed' });
        return;
      case 'AgentDeleted':
        this.patchAgent(event.data.agentId, { isActive: false, deleted: true });
        return;
      case 'ConversationStarted':
        this.conversations.set(event.data.conversationId, this.started(event.data.conversationId, event.data.participants));
        return;
      default:
        if ('conversationId' in event.data) this.evolveConversation(event, recorded.streamVersion);
    }
  }

  activeAgents(): MatchableAgent[] {
    return [...this.agents.values()].filter((agent) => agent.isActive && !agent.deleted);
  }

  openConversations(): OpenConversation[] {
    return [...this.conversations.values()]
      .filter((c) => c.status === 'active')
      .map((c) => ({ conversationId: c.conversationId, agentIds: c.participants.map((p) => p.agentId) }));
  }

  private patchAgent(agentId: number, patch: Partial<AgentInfo>): void {
    const agent = this.agents.get(agentId);
    if (agent) this.agents.set(agentId, { ...agent, ...patch });
  }

  private started(conversationId: number, participants: Participant[]): ConversationInfo {
    const borrower = participants.find((p) => p.type === 'borrower');
    const lender = participants.find((p) => p.type === 'lender');
    const broker = participants.find((p) => p.type === 'broker');
    const party = (p: Participant) => {
      const agent = this.agents.get(p.agentId);
      return { agentId: p.agentId, criteria: agent?.criteria ?? null, ...(agent?.strategy ? { strategy: agent.strategy } : {}) };
    };
    const negotiation =
      borrower && lender
        ? initialNegotiationState(conversationId, negotiationSetup(party(borrower), party(lender), broker?.agentId ?? null))
        : null;
    return { conversationId, participants, status: 'active', isManualMode: false, version: 0, negotiation };
  }

  private evolveConversation(event: DomainEvent, streamVersion: number): void {
    const conversationId = (event.data as { conversationId: number }).conversationId;
    const conversation = this.conversations.get(conversationId);
    if (!conversation) return;
    conversation.version = Math.max(conversation.version, streamVersion);
    if (event.type === 'ManualModeChanged') conversation.isManualMode = event.data.isManualMode;
    if (event.type === 'ConversationCompleted') conversation.status = 'completed';
    if (conversation.negotiation) conversation.negotiation = evolveNegotiation(conversation.negotiation, event);
  }
}
