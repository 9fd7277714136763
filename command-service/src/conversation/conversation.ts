import type { ConversationOutcome, EventOf, LoanTerms, Participant } from '@pf/events';
import { Invalid, NotFound } from '@pf/infra';
import { USER_MESSAGES } from '@pf/events';
import type { Decider } from '../handle-command';

export type ConversationEvent = EventOf<
  | 'ConversationStarted'
  | 'ManualModeChanged'
  | 'MessageSent'
  | 'ConversationCompleted'
  | 'OfferMade'
  | 'OfferAccepted'
  | 'OfferRejected'
  | 'DealAgreed'
>;

export type ConversationState =
  | { status: 'none' }
  | {
      status: 'active' | 'completed';
      conversationId: number;
      title: string;
      participants: Participant[];
      isManualMode: boolean;
      matchId: string | null;
    };

/** Who issues a command: a signed-in person (must own a participant) or an automated agent. */
export type Speaker = { kind: 'user'; userId: string; preferredAgentId?: number } | { kind: 'agent'; agentId: number };

export type ConversationCommand =
  | { type: 'StartConversation'; conversationId: number; title: string; participants: Participant[]; matchId: string | null }
  | { type: 'SetManualMode'; conversationId: number; actorId: string; isManualMode: boolean }
  | { type: 'SendMessage'; conversationId: number; messageId: number; speaker: Speaker; content: string; toAgentId?: number }
  | { type: 'MakeOffer'; conversationId: number; offerId: string; round: number; fromAgentId: number; toAgentId: number; terms: LoanTerms }
  | { type: 'AcceptOffer'; conversationId: number; offerId: string; byAgentId: number; terms: LoanTerms }
  | { type: 'RejectOffer'; conversationId: number; offerId: string; byAgentId: number }
  | { type: 'CompleteConversation'; conversationId: number; outcome: ConversationOutcome; reason: string }
  /** An automated agent's turn: its message and the negotiation events the engine decided, all or nothing. */
  | { type: 'RecordAgentTurn'; conversationId: number; agentId: number; events: ConversationEvent[] };

type Started = Exclude<ConversationState, { status: 'none' }>;

const notFound = (id: number) => new NotFound(`Conversation ${id} not found`);

/** A conversation is visible to the owners of its agents; to anyone else it does not exist. */
function visibleTo(state: ConversationState, conversationId: number, userId: string): Started {
  if (state.status === 'none' || !state.participants.some((p) => p.ownerId === userId)) throw notFound(conversationId);
  return state;
}

function started(state: ConversationState, conversationId: number): Started {
  if (state.status === 'none') throw notFound(conversationId);
  return state;
}

function active(state: ConversationState, conversationId: number): Started {
  const conversation = started(state, conversationId);
  if (conversation.status !== 'active') throw new Invalid(`Conversation ${conversationId} is completed`);
  return conversation;
}

/** The person speaks as their own agent in the conversation (the one they asked for, if it is theirs). */
function senderFor(conversation: Started, speaker: Speaker): Participant {
  const sender =
    speaker.kind === 'agent'
      ? conversation.participants.find((p) => p.agentId === speaker.agentId)
      : (conversation.participants.find((p) => p.ownerId === speaker.userId && p.agentId === speaker.preferredAgentId) ??
        conversation.participants.find((p) => p.ownerId === speaker.userId));
  if (!sender) throw notFound(conversation.conversationId);
  return sender;
}

/** The addressee: the other principal (borrower ↔ lender); a broker speaks to the borrower. */
function counterpartOf(conversation: Started, sender: Participant): Participant | undefined {
  const others = conversation.participants.filter((p) => p.agentId !== sender.agentId);
  const opposite = sender.type === 'lender' ? 'borrower' : sender.type === 'borrower' ? 'lender' : 'borrower';
  return others.find((p) => p.type === opposite) ?? others[0];
}

export function decide(command: ConversationCommand, state: ConversationState): ConversationEvent[] {
  switch (command.type) {
    case 'StartConversation': {
      if (state.status !== 'none') return [];
      const { conversationId, title, participants, matchId } = command;
      return [{ type: 'ConversationStarted', data: { conversationId, title, participants, matchId } }];
    }
    case 'SetManualMode': {
      const conversation = visibleTo(state, command.conversationId, command.actorId);
      if (conversation.isManualMode === command.isManualMode) return [];
      return [{ type: 'ManualModeChanged', data: { conversationId: command.conversationId, isManualMode: command.isManualMode } }];
    }
    case 'SendMessage': {
      if (command.speaker.kind === 'user') visibleTo(state, command.conversationId, command.speaker.userId);
      const conversation = active(state, command.conversationId);
      const isAutomated = command.speaker.kind === 'agent';
      // While a person has the conversation, its automated agents say nothing (DESIGN.md "Manual override").
      if (isAutomated && conversation.isManualMode) return [];
      if (!isAutomated && !conversation.isManualMode) throw new Invalid(USER_MESSAGES.switchToManualFirst);
      const sender = senderFor(conversation, command.speaker);
      const to = command.toAgentId ?? counterpartOf(conversation, sender)?.agentId ?? null;
      return [
        {
          type: 'MessageSent',
          data: {
            conversationId: command.conversationId,
            messageId: command.messageId,
            fromAgentId: sender.agentId,
            toAgentId: to,
            content: command.content,
            isAutomated,
          },
        },
      ];
    }
    case 'MakeOffer': {
      active(state, command.conversationId);
      const { conversationId, offerId, round, fromAgentId, toAgentId, terms } = command;
      return [{ type: 'OfferMade', data: { conversationId, offerId, round, fromAgentId, toAgentId, terms } }];
    }
    case 'AcceptOffer': {
      active(state, command.conversationId);
      const { conversationId, offerId, byAgentId, terms } = command;
      return [{ type: 'OfferAccepted', data: { conversationId, offerId, byAgentId, terms } }];
    }
    case 'RejectOffer': {
      active(state, command.conversationId);
      const { conversationId, offerId, byAgentId } = command;
      return [{ type: 'OfferRejected', data: { conversationId, offerId, byAgentId } }];
    }
    case 'CompleteConversation': {
      const conversation = started(state, command.conversationId);
      if (conversation.status === 'completed') return [];
      const { conversationId, outcome, reason } = command;
      return [{ type: 'ConversationCompleted', data: { conversationId, outcome, reason } }];
    }
    case 'RecordAgentTurn': {
      const conversation = active(state, command.conversationId);
      // Manual mode may have begun while the agent was composing: then it says nothing.
      if (conversation.isManualMode) return [];
      if (!conversation.participants.some((p) => p.agentId === command.agentId)) throw notFound(command.conversationId);
      const foreign = command.events.find((event) => 'conversationId' in event.data && event.data.conversationId !== command.conversationId);
      if (foreign) throw new Invalid(`An agent's turn in conversation ${command.conversationId} cannot record ${foreign.type} of another`);
      return command.events;
    }
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}

export function evolve(state: ConversationState, event: ConversationEvent): ConversationState {
  switch (event.type) {
    case 'ConversationStarted': {
      const { conversationId, title, participants, matchId } = event.data;
      return { status: 'active', conversationId, title, participants, isManualMode: false, matchId };
    }
    case 'ManualModeChanged':
      return state.status === 'none' ? state : { ...state, isManualMode: event.data.isManualMode };
    case 'ConversationCompleted':
      return state.status === 'none' ? state : { ...state, status: 'completed' };
    default:
      return state;
  }
}

export const conversationDecider: Decider<ConversationCommand, ConversationState, ConversationEvent> = {
  initialState: { status: 'none' },
  decide,
  evolve,
};
