import type { Participant } from '../conversation';
import type { AgentFacts } from './agents';
import type { Conversation } from './conversations';

/** What a deleted person's agent is called wherever it was named (docs/decisions/hash-chain.md "Erasure"). */
export const DELETED_AGENT_NAME = 'Deleted agent';

/** A conversation's title once a party has gone: the parties' names as they now read, in order. */
export function erasedTitle(participants: readonly Pick<Participant, 'name'>[]): string {
  return participants.map((participant) => participant.name).join(' ↔ ');
}

/**
 * The conversation as every reader tells it once these people have deleted their accounts: their agents named
 * "Deleted agent" and the title told again from the names left (the engine's title names both parties). The same
 * object back when none of its parties has gone. The read models' erasure step and the gateway's index both
 * apply it, so a push and a read of the conversation agree.
 */
export function withoutDeletedParties<C extends Pick<Conversation, 'participants' | 'title'>>(
  conversation: C,
  gone: (ownerId: string) => boolean,
): C {
  if (!conversation.participants.some((participant) => gone(participant.ownerId))) return conversation;
  const participants = conversation.participants.map((participant) =>
    gone(participant.ownerId) ? { ...participant, name: DELETED_AGENT_NAME } : participant,
  );
  return { ...conversation, participants, title: erasedTitle(participants) };
}

/** A deleted person's agent as it is kept (deleted, so it acts no more): what they wrote of it goes. */
export function erasedAgent<A extends AgentFacts>(agent: A): A {
  return {
    ...agent,
    name: DELETED_AGENT_NAME,
    description: '',
    criteria: null,
    products: null,
    needs: null,
    isActive: false,
    isDeleted: true,
  };
}
