import {
  decideAgentMove,
  offerEvents,
  offerTermsProblem,
  type ConversationCommand,
  type OfferTable,
  type ConversationEvent,
  type NeedStatus,
} from '@pf/events';
import { Invalid, NotFound } from '@pf/infra';
import { committedElsewhere, NeedCommittedElsewhere } from '../need/need';
import { active, checkSpeaksFor, counterpartOf, isSilenced, senderFor, visibleTo, type ConversationState, type Started } from './state';

/** The conversation commands that offer, agree or leave, each decided against the borrower's need as it stood. */
export type CommitmentCommand = Extract<
  ConversationCommand,
  { type: 'MakeOffer' | 'RecordAgentTurn' | 'EndForCommitment' | 'ReturnSideToAgent' }
>;

const borrowerOf = (conversation: Started) => conversation.participants.find((p) => p.type === 'borrower');

/** The conversation's offers and who negotiates them, as the offer rules read them (events/src/offers). */
function offerTableOf(conversation: Started): OfferTable {
  const agentOf = (type: 'borrower' | 'lender' | 'broker') => conversation.participants.find((p) => p.type === type)?.agentId;
  const borrowerAgentId = agentOf('borrower');
  const lenderAgentId = agentOf('lender');
  if (borrowerAgentId === undefined || lenderAgentId === undefined)
    throw new Invalid('There is nobody on the other side to make an offer to');
  return {
    conversationId: conversation.conversationId,
    book: conversation.offers,
    parties: { borrowerAgentId, lenderAgentId, brokerAgentId: agentOf('broker') ?? null },
  };
}

/** Refused while the borrower's need is committed to another conversation (docs/decisions/one-commitment-per-need.md). */
function refuseIfCommittedElsewhere(conversation: Started, need: NeedStatus | undefined): void {
  const commitment = committedElsewhere(need, conversation.conversationId);
  if (commitment) throw new NeedCommittedElsewhere(borrowerOf(conversation)?.name ?? 'The borrower', commitment);
}

export function commitmentMove(command: CommitmentCommand, state: ConversationState): ConversationEvent[] {
  switch (command.type) {
    case 'MakeOffer': {
      if (command.speaker.kind !== 'user') throw new Invalid('An agent offers as part of its turn');
      const conversation = active(visibleTo(state, command.conversationId, command.speaker.firmId), command.conversationId);
      const sender = senderFor(conversation, command.speaker);
      if (sender.type === 'broker') throw new Invalid("Only the borrower's or the lender's side makes offers");
      if (!isSilenced(conversation, sender.agentId)) throw new Invalid('Take over your side (Manual Mode) first to make an offer');
      checkSpeaksFor(conversation, sender, command.speaker);
      refuseIfCommittedElsewhere(conversation, command.need);
      const problem = offerTermsProblem(command.terms);
      if (problem) throw new Invalid(problem);
      const { conversationId, offerId, terms } = command;
      const to = conversation.participants.find((p) => p.type === (sender.type === 'borrower' ? 'lender' : 'borrower'));
      if (!to) throw new Invalid('There is nobody on the other side to make an offer to');
      return [
        ...(command.note
          ? [
              {
                type: 'MessageSent' as const,
                data: {
                  conversationId,
                  messageId: command.note.messageId,
                  fromAgentId: sender.agentId,
                  toAgentId: to.agentId,
                  content: command.note.content,
                  isAutomated: true,
                  reading: true as const,
                },
              },
            ]
          : []),
        // Numbered by the book; the other side's offer on the table is turned down by it (docs/behaviour/offers.md).
        ...offerEvents(offerTableOf(conversation), sender.agentId, { offerId, terms, byPerson: true }),
      ];
    }
    case 'RecordAgentTurn': {
      const conversation = active(state, command.conversationId);
      // Its side may have been taken over while the agent was composing: then it says nothing.
      if (isSilenced(conversation, command.agentId)) return [];
      const agent = conversation.participants.find((p) => p.agentId === command.agentId);
      if (!agent) throw new NotFound(`Conversation ${command.conversationId} not found`);
      const { conversationId, message, move } = command;
      if (move && move.kind !== 'walk-away') refuseIfCommittedElsewhere(conversation, command.need);
      if (move?.kind === 'accept' && command.need?.committed?.conversationId !== conversationId) {
        throw new Invalid("Terms are agreed only once the borrower's need is committed to this conversation");
      }
      const decided = move ? decideAgentMove(offerTableOf(conversation), agent.agentId, move) : { events: [] };
      if ('refused' in decided) throw new Invalid(decided.refused);
      return [
        ...(message
          ? [
              {
                type: 'MessageSent' as const,
                data: {
                  conversationId,
                  messageId: message.messageId,
                  fromAgentId: agent.agentId,
                  toAgentId: agent.type === 'broker' ? null : (counterpartOf(conversation, agent)?.agentId ?? null),
                  content: message.content,
                  isAutomated: true,
                },
              },
            ]
          : []),
        ...decided.events,
      ];
    }
    case 'EndForCommitment': {
      if (state.status !== 'active') return [];
      const conversation = state;
      if (isSilenced(conversation, command.byAgentId)) return [];
      const commitment = committedElsewhere(command.need, conversation.conversationId);
      if (!commitment)
        throw new Invalid(`The borrower's need is not committed elsewhere: conversation ${conversation.conversationId} goes on`);
      const by = conversation.participants.find((p) => p.agentId === command.byAgentId);
      if (!by) throw new NotFound(`Agent ${command.byAgentId} takes no part in conversation ${conversation.conversationId}`);
      const { conversationId, message } = command;
      const borrower = borrowerOf(conversation)?.name ?? 'The borrower';
      return [
        {
          type: 'MessageSent',
          data: {
            conversationId,
            messageId: message.messageId,
            fromAgentId: by.agentId,
            toAgentId: counterpartOf(conversation, by)?.agentId ?? null,
            content: message.content,
            isAutomated: true,
          },
        },
        {
          type: 'ConversationCompleted',
          data: {
            conversationId,
            outcome: 'stopped',
            // The outcome, not the winner: this reason is the losing side's to read too (History, the feed, notifications).
            reason: `${borrower} agreed terms in another negotiation`,
          },
        },
      ];
    }
    case 'ReturnSideToAgent': {
      // Only if the owner still holds the side and the same speech is unanswered: a stale or repeated check writes nothing.
      if (state.status !== 'active') return [];
      const { conversationId, ownerId, unansweredKey, message } = command;
      const clock = state.clock;
      // The owner's sides still held (a side is one participant: docs/decisions/per-side-control.md).
      const sides = state.participants.filter((p) => p.ownerId === ownerId && state.manual[p.agentId] !== undefined);
      if (sides.length === 0 || !clock?.manual.has(ownerId) || clock.waiting.get(ownerId)?.key !== unansweredKey) return [];
      const speaker = sides.find((p) => p.type !== 'broker') ?? sides[0]!;
      return [
        // No byUserId: nobody switched it; the metadata names the system as the actor.
        ...sides.map((p): ConversationEvent => ({
          type: 'ManualModeChanged',
          data: { conversationId, isManualMode: false, agentId: p.agentId, agentIds: [p.agentId] },
        })),
        {
          type: 'MessageSent',
          data: {
            conversationId,
            messageId: message.messageId,
            fromAgentId: speaker.agentId,
            toAgentId: counterpartOf(state, speaker)?.agentId ?? null,
            content: message.content,
            isAutomated: true,
          },
        },
      ];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}
