import type { OfferBook, Participant, SideHolder, Speaker } from '@pf/events';
import { canSeeConversation, firmOf, holderOf, USER_MESSAGES } from '@pf/events';
import { Conflict, Invalid, NotFound } from '@pf/infra';
import type { SideClock } from './response-time';

/**
 * A conversation as its decider folds it, and the checks every conversation command makes against it: who may see
 * it, whether it is still open, who speaks for a side. The decider (conversation.ts) and its moves (control.ts,
 * commitment-moves.ts) all read them from here.
 */

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

export function started(state: ConversationState, conversationId: number): Started {
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
