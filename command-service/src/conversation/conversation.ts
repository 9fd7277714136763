import type { ConversationCommand, ConversationEvent, Participant, Speaker } from '@pf/events';
import { Conflict, Forbidden, Invalid, NotFound } from '@pf/infra';
import { switchSides, USER_MESSAGES } from '@pf/events';
import type { Decider } from '../handle-command';

export type { ConversationCommand, ConversationEvent, Speaker } from '@pf/events';

export type ConversationState =
  | { status: 'none' }
  | {
      status: 'active' | 'completed';
      conversationId: number;
      title: string;
      participants: Participant[];
      /** The sides a person has taken over: owner → the session they took it from. */
      manual: Record<string, { byUserId: string | null; sessionId: string | null }>;
      matchId: string | null;
    };

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

/** An agent whose owner has taken over their side says nothing of its own. */
export const isSilenced = (conversation: Started, agentId: number) => {
  const owner = conversation.participants.find((p) => p.agentId === agentId)?.ownerId;
  return owner !== undefined && owner in conversation.manual;
};

/**
 * Control per side (DESIGN.md): a person switches only the side of their own agents. Taking over a side
 * already taken over from another session is refused: exactly one session has control (two at once are
 * settled by the append's expected version; the loser is told here, on retry, or by the 409 of the append).
 */
function switchSide(state: ConversationState, command: Extract<ConversationCommand, { type: 'SetManualMode' }>): ConversationEvent[] {
  const conversation = visibleTo(state, command.conversationId, command.actorId);
  if (command.agentId !== undefined) {
    const named = conversation.participants.find((p) => p.agentId === command.agentId);
    if (!named) throw new NotFound(`Agent ${command.agentId} takes no part in conversation ${command.conversationId}`);
    if (named.ownerId !== command.actorId) {
      throw new Forbidden(`${named.name} belongs to another operator: you can take over or hand back only your own agents`);
    }
  }
  const agentIds = conversation.participants.filter((p) => p.ownerId === command.actorId).map((p) => p.agentId);
  const current = conversation.manual[command.actorId];
  if (command.isManualMode && current) {
    if (current.sessionId === (command.sessionId ?? null)) return [];
    throw new Conflict(USER_MESSAGES.sideTakenElsewhere);
  }
  if (!command.isManualMode && !current) return [];
  return [
    {
      type: 'ManualModeChanged',
      data: {
        conversationId: command.conversationId,
        isManualMode: command.isManualMode,
        ownerId: command.actorId,
        agentIds,
        byUserId: command.actorId,
        ...(command.sessionId ? { sessionId: command.sessionId } : {}),
      },
    },
  ];
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
      // An owner whose agent negotiates only by hand (auto-negotiate off) has their side from the first moment,
      // in the same append: their agent never gets a word in before the takeover.
      const manualOwners = [...new Set(command.manualOwnerIds ?? [])].filter((owner) => participants.some((p) => p.ownerId === owner));
      return [
        { type: 'ConversationStarted', data: { conversationId, title, participants, matchId } },
        ...manualOwners.map((ownerId): ConversationEvent => ({
          type: 'ManualModeChanged',
          data: { conversationId, isManualMode: true, ownerId, agentIds: participants.filter((p) => p.ownerId === ownerId).map((p) => p.agentId), byUserId: ownerId },
        })),
      ];
    }
    case 'SetManualMode':
      return switchSide(state, command);
    case 'SendMessage': {
      if (command.speaker.kind === 'user') visibleTo(state, command.conversationId, command.speaker.userId);
      const conversation = active(state, command.conversationId);
      const isAutomated = command.speaker.kind === 'agent';
      const sender = senderFor(conversation, command.speaker);
      // While a person has a side, that side's automated agents say nothing (DESIGN.md "Manual override");
      // a person speaks only for a side they have taken over. The other side is untouched either way.
      if (isAutomated && isSilenced(conversation, sender.agentId)) return [];
      if (!isAutomated && !isSilenced(conversation, sender.agentId)) throw new Invalid(USER_MESSAGES.switchToManualFirst);
      // Exactly one session speaks for a side: the one that took it over (the composer elsewhere is locked too).
      if (command.speaker.kind === 'user' && command.speaker.sessionId !== undefined) {
        const held = conversation.manual[sender.ownerId];
        if (held?.sessionId && held.sessionId !== command.speaker.sessionId) throw new Conflict(USER_MESSAGES.sideHeldElsewhere);
      }
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
    case 'RecordStall': {
      const conversation = started(state, command.conversationId);
      if (conversation.status !== 'active') return [];
      const { conversationId, agentId, reason } = command;
      return [{ type: 'ConversationStalled', data: { conversationId, agentId, reason } }];
    }
    case 'RecordAgentTurn': {
      const conversation = active(state, command.conversationId);
      // Its side may have been taken over while the agent was composing: then it says nothing.
      if (isSilenced(conversation, command.agentId)) return [];
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
      return { status: 'active', conversationId, title, participants, manual: {}, matchId };
    }
    case 'ManualModeChanged': {
      if (state.status === 'none') return state;
      // The conversations view's per-owner rule (switchSides); this state keeps each side's holder by owner.
      const sides = Object.entries(state.manual).map(([ownerId, holder]) => ({ ownerId, ...holder }));
      const switched = switchSides(sides, state, event, (ownerId, holder) => ({ ownerId, ...holder }));
      return { ...state, manual: Object.fromEntries(switched.map(({ ownerId, ...holder }) => [ownerId, holder])) };
    }
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
