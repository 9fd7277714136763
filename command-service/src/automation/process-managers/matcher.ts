import { randomUUID } from 'node:crypto';
import { streams, type EventMetadata } from '@pf/events';
import type { RecordedEvent, ServiceContext } from '@pf/infra';
import type { MatchSettings } from '../../matching/matchable';
import { conversationsToStop, planMatchesExplained } from '../../matching/plan-matches';
import { conversationDecider } from '../../conversation/conversation';
import { handleCommand } from '../../handle-command';
import { nextId } from '../../ids';
import { matchDecider } from '../../matching/match-decider';
import type { AutomationState } from './automation-state';
import { decidedIds } from './decisions';
import { deterministicId } from './deterministic-id';

// The automation's reaction to agents (a process manager, kept with its state and its decided ids); which pairs to
// match is the matching slice's rule (matching/plan-matches.ts), which imports nothing from here.

const metadataFor = (cause: RecordedEvent, name: string): EventMetadata => ({
  actor: { kind: 'system', name },
  correlationId: cause.metadata.correlationId,
  causationId: cause.id,
});

/**
 * An agent created, edited or resumed (or Match pressed): record the matches worth making and open a
 * conversation for each. Returns the ids of the matches it recorded.
 */
export async function matchAgent(
  context: ServiceContext,
  state: AutomationState,
  agentId: number,
  cause: RecordedEvent,
  settings: MatchSettings,
): Promise<string[]> {
  return (await matchAgentExplained(context, state, agentId, cause, settings)).matchIds;
}

export interface MatchOutcome {
  matchIds: string[];
  /** Every pair that fits had already negotiated with these criteria (nothing new to try): Match's note says so. */
  everyFitNegotiated: boolean;
}

/** matchAgent, also saying whether nothing was new because every fitting pair had negotiated already. */
export async function matchAgentExplained(
  context: ServiceContext,
  state: AutomationState,
  agentId: number,
  cause: RecordedEvent,
  settings: MatchSettings,
): Promise<MatchOutcome> {
  const agent = state.agents.get(agentId);
  if (!agent || !agent.isActive || agent.isDeleted) return { matchIds: [], everyFitNegotiated: false };
  const matchIds: string[] = [];
  const { plan, alreadyNegotiated, fresh } = planMatchesExplained(
    agent,
    state.activeAgents(),
    state.openConversations(),
    settings,
    state.negotiatedPairs,
  );
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
    // Agents created with auto-negotiate off: their owner's side opens taken over (Settings → Agent Defaults).
    const manualOwnerIds = participants.filter((p) => state.agents.get(p.agentId)?.autoNegotiate === false).map((p) => p.ownerId);
    const started = await handleCommand(
      context.store,
      streams.conversation(ids.conversationId),
      conversationDecider,
      {
        type: 'StartConversation',
        conversationId: ids.conversationId,
        title: match.title,
        participants,
        matchId: ids.matchId,
        ...(manualOwnerIds.length > 0 ? { manualOwnerIds } : {}),
      },
      metadata,
      (i) => deterministicId(`${key}:started:${i}`),
    );
    // Counted at once, so that the next pair in this batch respects the caps. A redelivered decision (the
    // conversation already stood) is not: the state knows it already, or knows it has completed since.
    if (started.events.length === 0) continue;
    matchIds.push(ids.matchId);
    state.observe({
      ...cause,
      type: 'ConversationStarted',
      stream: streams.conversation(ids.conversationId),
      streamVersion: 0,
      data: { conversationId: ids.conversationId, title: match.title, participants, matchId: ids.matchId },
    });
  }
  return { matchIds, everyFitNegotiated: plan.length === 0 && fresh === 0 && alreadyNegotiated > 0 };
}

/** A paused or deleted agent stops talking: its open conversations complete as stopped. */
export async function stopAgent(context: ServiceContext, state: AutomationState, agentId: number, cause: RecordedEvent): Promise<void> {
  const agent = state.agents.get(agentId);
  const why = cause.type === 'AgentDeleted' ? 'was deleted' : 'was paused';
  for (const conversationId of conversationsToStop(agentId, state.openConversations())) {
    // A message or offer may land meanwhile: the completion is decided again on what stands then.
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
