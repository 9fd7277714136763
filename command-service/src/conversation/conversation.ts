import type { ConversationCommand, ConversationEvent, OfferBook, Participant, SideHolder, Speaker } from '@pf/events';
import { Conflict, Invalid, NotFound } from '@pf/infra';
import {
  canSeeConversation,
  emptyOfferBook,
  evolveOfferBook,
  firmOf,
  holderOf,
  switchSides as switchedSides,
  USER_MESSAGES,
} from '@pf/events';
import type { Decider } from '../handle-command';
import { evolveSideClock, type SideClock } from '../process-managers/response-time';
import { commitmentMove, type CommitmentCommand } from './commitment-moves';
import { handOver, switchSides } from './control';

export type { ConversationCommand, ConversationEvent } from '@pf/events';

export type ConversationState =
  | { status: 'none' }
  | {
      status: 'active' | 'completed';
      conversationId: number;
      title: string;
      participants: Participant[];
      /** The sides a person has taken over: the side's agent → who holds it and from which session. */
      manual: Record<number, SideHolder>;
      matchId: string | null;
      /** Why it completed (shown when a command is refused because of it). */
      completedReason?: string;
      /** Every offer made and what became of it: the one fold of which offer stands (docs/behaviour/offers.md). */
      offers: OfferBook;
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

/** An agent whose side a person has taken over says nothing of its own. */
export const isSilenced = (conversation: Started, agentId: number) =>
  conversation.participants.some((p) => p.agentId === agentId) && conversation.manual[agentId] !== undefined;

/**
 * A person speaks (a message or an offer) only for a side they hold themself, and from the session holding it:
 * a colleague's side, or theirs held in another session, is refused in words (they ask for control).
 */
export function checkSpeaksFor(conversation: Started, sender: Participant, speaker: Speaker): void {
  if (speaker.kind !== 'user') return;
  const held = conversation.manual[sender.agentId];
  if (!held) throw new Invalid(USER_MESSAGES.switchToManualFirst);
  if (holderOf(held, sender) !== speaker.userId) {
    throw new Conflict(`${sender.name}'s side is held by another person of your firm: request control to speak for it`);
  }
  if (speaker.sessionId !== undefined && held.sessionId && held.sessionId !== speaker.sessionId) {
    throw new Conflict(USER_MESSAGES.sideHeldElsewhere);
  }
}

/**
 * The person speaks as their firm's agent in the conversation: the one they asked for, if it is their firm's,
 * else a side they hold, else their own, else their firm's first.
 */
export function senderFor(conversation: Started, speaker: Speaker): Participant {
  const firmId = speaker.kind === 'user' ? speaker.firmId : null;
  const ours = (p: Participant) => firmOf(p) === firmId;
  const sender =
    speaker.kind === 'agent'
      ? conversation.participants.find((p) => p.agentId === speaker.agentId)
      : (conversation.participants.find((p) => ours(p) && p.agentId === speaker.preferredAgentId) ??
        conversation.participants.find((p) => {
          const held = conversation.manual[p.agentId];
          return ours(p) && held !== undefined && holderOf(held, p) === speaker.userId;
        }) ??
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
      // An owner whose agent negotiates only by hand (auto-negotiate off) has that agent's side from the first
      // moment, in the same append: their agent never gets a word in before the takeover.
      const manualOwners = new Set(command.manualOwnerIds ?? []);
      return [
        { type: 'ConversationStarted', data: { conversationId, title, participants, matchId } },
        ...participants
          .filter((p) => manualOwners.has(p.ownerId))
          .map((p): ConversationEvent => ({
            type: 'ManualModeChanged',
            data: { conversationId, isManualMode: true, agentId: p.agentId, agentIds: [p.agentId], byUserId: p.ownerId },
          })),
      ];
    }
    case 'SetManualMode':
      return switchSides(state, command);
    case 'HandOverSide':
      return handOver(state, command);
    case 'SendMessage': {
      if (command.speaker.kind === 'user') visibleTo(state, command.conversationId, command.speaker.firmId);
      const conversation = active(state, command.conversationId);
      const isAutomated = command.speaker.kind === 'agent';
      const sender = senderFor(conversation, command.speaker);
      // While a person has a side, that side's automated agents say nothing (DESIGN.md "Manual override");
      // a person speaks only for a side they have taken over. The other side is untouched either way.
      if (isAutomated && isSilenced(conversation, sender.agentId)) return [];
      // Exactly one person, from one session, speaks for a side: the one holding it (the composer elsewhere is locked too).
      checkSpeaksFor(conversation, sender, command.speaker);
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
    case 'OfferRejected':
    case 'OfferAccepted':
      return state.status === 'none' ? state : { ...state, offers: evolveOfferBook(state.offers, event) };
    case 'ConversationStarted': {
      const { conversationId, title, participants, matchId } = event.data;
      const clock = evolveSideClock(null, event);
      return { status: 'active', conversationId, title, participants, manual: {}, matchId, offers: emptyOfferBook, clock };
    }
    case 'ManualModeChanged': {
      if (state.status === 'none') return state;
      // The conversations view's per-side rule (switchSides, which reads every recorded shape); kept by agent here.
      const sides = Object.entries(state.manual).map(([agentId, holder]) => ({ agentId: Number(agentId), ...holder }));
      const switched = switchedSides(sides, state, event, (agentId, holder) => ({ agentId, ...holder }));
      return { ...state, manual: Object.fromEntries(switched.map(({ agentId, ...holder }) => [agentId, holder])) };
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
