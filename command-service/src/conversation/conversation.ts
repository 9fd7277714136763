import type { ConversationCommand, ConversationEvent } from '@pf/events';
import { Invalid } from '@pf/infra';
import { emptyOfferBook, evolveOfferBook, switchSides as switchedSides } from '@pf/events';
import type { Decider } from '../handle-command';
import { commitmentMove, type CommitmentCommand } from './commitment-moves';
import { handOver, switchSides } from './control';
import { evolveSideClock } from './response-time';
import { readAsOffer } from './typed-offer';
import { active, checkSpeaksFor, counterpartOf, isSilenced, senderFor, started, visibleTo, type ConversationState } from './state';

export type { ConversationCommand, ConversationEvent } from '@pf/events';

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
        ...(command.speaker.kind === 'user' && command.reading
          ? readAsOffer(state, conversation, sender, { ...command, speaker: command.speaker, reading: command.reading })
          : []),
      ];
    }
    case 'MakeOffer':
    case 'RecordAgentTurn':
    case 'EndForCommitment':
    case 'ReturnSideToAgent':
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
