import { randomUUID } from 'node:crypto';
import { streams, type MessageReading } from '@pf/events';
import type { ServiceContext } from '@pf/infra';
import { agentDecider } from '../agent/agent';
import { foldEvents } from '../handle-command';
import { listTermsOf, marketOf } from '../automation/negotiation/list-price';
import { nextId } from '../ids';
import { needOfConversation } from '../need/read-need';
import { streamCacheOf } from '../stream-cache';

/**
 * What the conversation's decider needs to read a person's message as their side's offer (SendMessage's `reading`),
 * looked up where the command is issued: ids for the note and the offer, the borrower's need, and the case's terms
 * at list price, priced from the two agents as recorded with the market of the configuration (list-price.ts).
 */
export async function messageReadingOf(
  { store, pool, config }: Pick<ServiceContext, 'store' | 'pool' | 'config'>,
  conversationId: number,
): Promise<MessageReading> {
  const cache = streamCacheOf(store);
  const started = (await cache.read(streams.conversation(conversationId))).find((fact) => fact.type === 'ConversationStarted');
  const participants = started?.type === 'ConversationStarted' ? started.data.participants : [];
  const agentOf = async (type: 'borrower' | 'lender') => {
    const agentId = participants.find((p) => p.type === type)?.agentId;
    if (agentId === undefined) return null;
    const agent = foldEvents(agentDecider, await cache.read(streams.agent(agentId)));
    return agent.status === 'none' ? null : agent;
  };
  const [borrower, lender, need, noteMessageId] = await Promise.all([
    agentOf('borrower'),
    agentOf('lender'),
    needOfConversation(store, conversationId),
    nextId(pool, 'message_ids'),
  ]);
  return { noteMessageId, offerId: randomUUID(), need, listTerms: listTermsOf(borrower, lender, marketOf(config)) };
}
