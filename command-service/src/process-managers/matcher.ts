import { randomUUID } from 'node:crypto';
import { streams, type EventMetadata } from '@pf/events';
import type { RecordedEvent, ServiceContext } from '@pf/infra';
import { conversationsToStop, planMatches, type MatchSettings } from '../automation/matching/plan-matches';
import { conversationDecider } from '../conversation/conversation';
import { handleCommand } from '../handle-command';
import { nextId } from '../ids';
import { matchDecider } from './match-decider';
import type { AutomationState } from './automation-state';
import { decidedIds } from './decisions';
import { deterministicId } from './deterministic-id';

const metadataFor = (cause: RecordedEvent, name: string): EventMetadata => ({
  actor: { kind: 'system', name },
  correlationId: cause.metadata.correlationId,
  causationId: cause.id,
});

/** An agent created, edited or resumed: record the matches worth making and open a conversation for each. */
export async function matchAgent(
  context: ServiceContext,
  state: AutomationState,
  agentId: number,
  cause: RecordedEvent,
  settings: MatchSettings,
): Promise<void> {
  const agent = state.agents.get(agentId);
  if (!agent || !agent.isActive || agent.deleted) return;
  const plan = planMatches(agent, state.activeAgents(), state.openConversations(), settings);
  const metadata = metadataFor(cause, 'matcher');
  for (const [index, match] of plan.entries()) {
    const key = `${cause.id}:match:${index}`;
    const ids = await decidedIds(context.pool, key, async () => ({
      matchId: randomUUID(),
      conversationId: await nextId(context.pool, 'conversation_ids'),
    }));
    await handleCommand(
      context.store,
      streams.match(ids.matchId),
      matchDecider,
      {
        type: 'RecordMatch',
        matchId: ids.matchId,
        borrowerAgentId: match.borrower.agentId,
        lenderAgentId: match.lender.agentId,
        brokerAgentId: match.broker?.agentId ?? null,
        score: match.score,
        explanation: match.explanation,
      },
      metadata,
      (i) => deterministicId(`${key}:found:${i}`),
    );
    const participants = [match.borrower, ...(match.broker ? [match.broker] : []), match.lender];
    await handleCommand(
      context.store,
      streams.conversation(ids.conversationId),
      conversationDecider,
      { type: 'StartConversation', conversationId: ids.conversationId, title: match.title, participants, matchId: ids.matchId },
      metadata,
      (i) => deterministicId(`${key}:started:${i}`),
    );
    // Counted at once, so that the next pair in this batch respects the caps.
    state.observe({
      ...cause,
      type: 'ConversationStarted',
      stream: streams.conversation(ids.conversationId),
      streamVersion: 0,
      data: { conversationId: ids.conversationId, title: match.title, participants, matchId: ids.matchId },
    });
  }
}

/** A paused or deleted agent stops talking: its open conversations complete as stopped. */
export async function stopAgent(context: ServiceContext, state: AutomationState, agentId: number, cause: RecordedEvent): Promise<void> {
  const agent = state.agents.get(agentId);
  const why = cause.type === 'AgentDeleted' ? 'was deleted' : 'was paused';
  for (const conversationId of conversationsToStop(agentId, state.openConversations())) {
    await handleCommand(
      context.store,
      streams.conversation(conversationId),
      conversationDecider,
      { type: 'CompleteConversation', conversationId, outcome: 'stopped', reason: `${agent?.name ?? `Agent ${agentId}`} ${why}` },
      metadataFor(cause, 'matcher'),
      (i) => deterministicId(`${cause.id}:stop:${conversationId}:${i}`),
    );
  }
}
