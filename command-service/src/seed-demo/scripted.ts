import { randomUUID } from 'node:crypto';
import { streams, type EventMetadata, type Participant, type Position } from '@pf/events';
import type { ServiceContext } from '@pf/infra';
import { conversationDecider } from '../conversation/conversation';
import { handleCommand } from '../handle-command';
import { nextId } from '../ids';
import { matchDecider } from '../matching/match-decider';
import { scoreMatch } from '../matching/score-match';
import { DEMO_AGENTS, type DemoConversation } from './demo-data';

/**
 * A conversation already under way between demo agents just created (only without the automated agents, whose
 * matcher opens conversations itself), with the match the matcher would have recorded so its header explains
 * it. Its messages are said by the agents. Answers the position of its last event.
 */
export async function startScriptedConversation(
  { pool, store }: Pick<ServiceContext, 'pool' | 'store'>,
  conversation: DemoConversation,
  participants: ReadonlyMap<string, Participant>,
  metadata: EventMetadata,
): Promise<Position | null> {
  const parties = conversation.participants.map((key) => participants.get(key)!);
  const [borrower, lender, broker] = (['borrower', 'lender', 'broker'] as const).map((type) => parties.find((p) => p.type === type));
  let matchId: string | null = null;
  if (borrower && lender) {
    const criteriaOf = (participant: Participant) => DEMO_AGENTS.find((agent) => agent.name === participant.name)?.criteria ?? null;
    matchId = randomUUID();
    await handleCommand(
      store,
      streams.match(matchId),
      matchDecider,
      {
        type: 'RecordMatch',
        matchId,
        borrowerAgentId: borrower.agentId,
        lenderAgentId: lender.agentId,
        brokerAgentId: broker?.agentId ?? null,
        ...scoreMatch(criteriaOf(borrower), criteriaOf(lender)),
      },
      metadata,
    );
  }
  const conversationId = await nextId(pool, 'conversation_ids');
  const stream = streams.conversation(conversationId);
  let { position } = await handleCommand(
    store,
    stream,
    conversationDecider,
    { type: 'StartConversation', conversationId, title: conversation.title, participants: parties, matchId },
    metadata,
  );
  for (const message of conversation.messages) {
    const agentId = participants.get(message.from)!.agentId;
    const sent = await agentSays({ pool, store }, conversationId, agentId, message.content, {
      ...metadata,
      actor: { kind: 'agent', agentId },
    });
    position = sent.position ?? position;
  }
  return position;
}

/** A demo line said in a conversation by one of its agents (a side its operator holds says nothing). */
export async function agentSays(
  { pool, store }: Pick<ServiceContext, 'pool' | 'store'>,
  conversationId: number,
  agentId: number,
  content: string,
  metadata: EventMetadata,
) {
  return handleCommand(
    store,
    streams.conversation(conversationId),
    conversationDecider,
    { type: 'SendMessage', conversationId, messageId: await nextId(pool, 'message_ids'), speaker: { kind: 'agent', agentId }, content },
    metadata,
  );
}
