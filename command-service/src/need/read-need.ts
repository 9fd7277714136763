import { streams } from '@pf/events';
import type { EventStore } from '@pf/infra';
import { streamCacheOf } from '../stream-cache';
import { needDecider, type NeedState } from './need';

/** The need as its stream stands now (through the command side's cache): what a conversation's decider is given. */
export async function readNeed(store: EventStore, borrowerAgentId: number): Promise<NeedState> {
  const stream = streams.need(borrowerAgentId);
  const cache = streamCacheOf(store);
  return cache.fold(stream, await cache.read(stream), needDecider, needDecider.initialState, (state, fact) =>
    needDecider.evolve(state, fact),
  );
}

/** The need of a conversation's borrower (open when it has none: nothing to commit). */
export async function needOfConversation(store: EventStore, conversationId: number): Promise<NeedState> {
  const stream = streams.conversation(conversationId);
  const cache = streamCacheOf(store);
  const started = (await cache.read(stream)).find((fact) => fact.type === 'ConversationStarted');
  const borrower = started?.data.participants.find((p) => p.type === 'borrower');
  return borrower ? readNeed(store, borrower.agentId) : needDecider.initialState;
}
