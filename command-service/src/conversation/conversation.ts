import type { ConversationCommand, ConversationEvent, Participant, Speaker } from '@pf/events';
import { Conflict, Forbidden, Invalid, NotFound } from '@pf/infra';
import { canSeeConversation, firmOf, switchSides, USER_MESSAGES } from '@pf/events';
import type { Decider } from '../handle-command';
import { evolveSideClock, type SideClock } from '../process-managers/response-time';
import { commitmentMove, type CommitmentCommand } from './commitment-moves';

export type { ConversationCommand, ConversationEvent } from '@pf/events';

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
      /** Why it completed (shown when a command is refused because of it). */
      completedReason?: string;
      /** The offer on the table, if open, and how many offers were made (an operator's offer's round). */
      openOffer: { offerId: string; fromAgentId: number } | null;
      offersMade: number;
      /** Who owes whom an answer (the response-time rule's clock, folded from the same events). */
      clock: SideClock | null;
    };

export type Started = Exclude<ConversationState, { status: 'none' }>;

const notFound = (id: number) => new NotFound(`Conversation ${id} not found`);

/** A conversation is visible to the firms of its agents (visibility.ts); to anyone else it does not exist. */
export function visibleTo(state: ConversationState, conversationId: number, firmId: string): Started {
  if (state.status === 'none' || !canSeeConversation(state, firmId)) throw notFound(conversationId);
  return state;
}

/**
 * The side a person of a firm switches or speaks for: the owner whose agents form it. The side of the agent
 * they name (their firm's only), else their own agents' side, else the first side of their firm's agents.
 */
function sideOf(conversation: Started, actorId: string, firmId: string, agentId: number | undefined): string {
  if (agentId !== undefined) {
    const named = conversation.participants.find((p) => p.agentId === agentId);
    if (!named) throw new NotFound(`Agent ${agentId} takes no part in conversation ${conversation.conversationId}`);
    if (firmOf(named) !== firmId) {
      throw new Forbidden(`${named.name} belongs to another firm: you can take over or hand back only your own firm's agents`);
    }
    return named.ownerId;
  }
  const own =
    conversation.participants.find((p) => p.ownerId === actorId && firmOf(p) === firmId) ??
    conversation.participants.find((p) => firmOf(p) === firmId);
  return own!.ownerId;
}

function started(state: ConversationState, conversationId: number): Started {
  if (state.status === 'none') throw notFound(conversationId);
  return state;
}

export function active(state: ConversationState, conversationId: number): Started {
  const conversation = started(state, conversationId);
  if (conversation.status !== 'active') {
    throw new Invalid(
      `Conversation ${conversationId} is completed${conversation.completedReason ? `: ${conversation.completedReason}` : ''}`,
    );
  }
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
  const firmId = command.actorFirmId ?? command.actorId;
  const conversation = visibleTo(state, command.conversationId, firmId);
  const side = sideOf(conversation, command.actorId, firmId, command.agentId);
  const agentIds = conversation.participants.filter((p) => p.ownerId === side).map((p) => p.agentId);
  const current = conversation.manual[side];
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
        ownerId: side,
        agentIds,
        byUserId: command.actorId,
        ...(command.sessionId ? { sessionId: command.sessionId } : {}),
      },
    },
  ];
}

/**
 * The person speaks as their firm's agent in the conversation: the one they asked for, if it is their firm's,
 * else their own, else their firm's first.
 */
export function senderFor(conversation: Started, speaker: Speaker): Participant {
  const firmId = speaker.kind === 'user' ? (speaker.firmId ?? speaker.userId) : null;
  const ours = (p: Participant) => firmOf(p) === firmId;
  const sender =
    speaker.kind === 'agent'
      ? conversation.participants.find((p) => p.agentId === speaker.agentId)
      : (conversation.participants.find((p) => ours(p) && p.agentId === speaker.preferredAgentId) ??
        conversation.participants.find((p) => ours(p) && p.ownerId === speaker.userId) ??
        conversation.participants.find(ours));
  if (!sender) throw notFound(conversation.conversationId);
  return sender;
}

/** The addressee: the other principal (borrower ↔ lender); a broker speaks to the borrower. */
export function counterpartOf(conversation: Started, sender: Participant): Participant | undefined {
  const others = conversation.participants.filter((p) => p.agentId !== sender.agentId);
  const opposite = sender.type === 'lender' ? 'borrower' : sender.type === 'borrower' ? 'lender' : 'borrower';
  return others.find((p) => p.type === opposite) ?? others[0];
}

function decide(command: ConversationCommand, state: ConversationState): ConversationEvent[] {
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
          data: {
            conversationId,
            isManualMode: true,
            ownerId,
            agentIds: participants.filter((p) => p.ownerId === ownerId).map((p) => p.agentId),
            byUserId: ownerId,
          },
        })),
      ];
    }
    case 'SetManualMode':
      return switchSide(state, command);
    case 'SendMessage': {
      if (command.speaker.kind === 'user') visibleTo(state, command.conversationId, command.speaker.firmId ?? command.speaker.userId);
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
    case 'MakeOffer':
    case 'RecordAgentTurn':
    case 'EndForCommitment':
    case 'ReturnSideToAgent':
    case 'NoteReading':
      return commitmentMove(command satisfies CommitmentCommand, state);
    case 'AcceptOffer': {
      // Only an agent's turn (RecordAgentTurn, with the need committed here) may agree terms.
      active(state, command.conversationId);
      throw new Invalid("An acceptance is recorded as an agent's turn with the borrower's need committed to this conversation");
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
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}

function evolve(state: ConversationState, event: ConversationEvent): ConversationState {
  const clocked =
    state.status === 'none' || event.type === 'ConversationStarted' ? state : { ...state, clock: evolveSideClock(state.clock, event) };
  return evolveOwn(clocked, event);
}

function evolveOwn(state: ConversationState, event: ConversationEvent): ConversationState {
  switch (event.type) {
    case 'OfferMade':
      if (state.status === 'none') return state;
      return {
        ...state,
        openOffer: { offerId: event.data.offerId, fromAgentId: event.data.fromAgentId },
        offersMade: state.offersMade + 1,
      };
    case 'OfferRejected':
    case 'OfferAccepted':
      if (state.status === 'none' || state.openOffer?.offerId !== event.data.offerId) return state;
      return { ...state, openOffer: null };
    case 'ConversationStarted': {
      const { conversationId, title, participants, matchId } = event.data;
      const clock = evolveSideClock(null, event);
      return { status: 'active', conversationId, title, participants, manual: {}, matchId, openOffer: null, offersMade: 0, clock };
    }
    case 'ManualModeChanged': {
      if (state.status === 'none') return state;
      // The conversations view's per-owner rule (switchSides); this state keeps each side's holder by owner.
      const sides = Object.entries(state.manual).map(([ownerId, holder]) => ({ ownerId, ...holder }));
      const switched = switchSides(sides, state, event, (ownerId, holder) => ({ ownerId, ...holder }));
      return { ...state, manual: Object.fromEntries(switched.map(({ ownerId, ...holder }) => [ownerId, holder])) };
    }
    case 'ConversationCompleted':
      return state.status === 'none' ? state : { ...state, status: 'completed', completedReason: event.data.reason };
    default:
      return state;
  }
}

export const conversationDecider: Decider<ConversationCommand, ConversationState, ConversationEvent> = {
  initialState: { status: 'none' },
  decide,
  evolve,
};
