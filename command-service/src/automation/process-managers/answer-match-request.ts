import { DEMO_SANDBOX_RULE, streams } from '@pf/events';
import type { RecordedEvent, ServiceContext } from '@pf/infra';
import type { MatchSettings } from '../../matching/matchable';
import { handleCommand } from '../../handle-command';
import type { AutomationState } from './automation-state';
import { deterministicId } from './deterministic-id';
import { matchAgentExplained } from './matcher';
import { matchRunDecider } from '../../matching/match-run';
import { sourcingOf } from '../../matching/sourcing';
import { keptApartBySandbox } from '../../matching/sandbox';

/** The matcher's answer to Match: it runs for the lead as on a resume, then says what it found. */
export async function answerMatchRequest(
  context: ServiceContext,
  state: AutomationState,
  cause: RecordedEvent<'MatchRequested'>,
  settings: MatchSettings,
): Promise<void> {
  const { requestId, agentId } = cause.data;
  const { matchIds, everyFitNegotiated } = await matchAgentExplained(context, state, agentId, cause, settings);
  const agent = state.agents.get(agentId);
  const sourcing = agent ? sourcingOf(agent, state.activeAgents(), settings) : null;
  const note =
    matchIds.length > 0
      ? null
      : everyFitNegotiated
        ? alreadyNegotiatedNote(agent)
        : agent && keptApartBySandbox(agent, state.activeAgents(), settings)
          ? sandboxNote(agent, settings.threshold)
          : `No new match at ${settings.threshold} or more: every counterpart that fits is already in conversation, at its limit of ${settings.maxOpenConversations}, or scores below ${settings.threshold}`;
  await handleCommand(
    context.store,
    streams.matchRun(requestId),
    matchRunDecider,
    { type: 'AnswerMatch', requestId, agentId, matchIds, note, ...(sourcing ? { sourcing } : {}) },
    { actor: { kind: 'system', name: 'matcher' }, correlationId: cause.metadata.correlationId, causationId: cause.id },
    (index) => deterministicId(`${cause.id}:match-run:${index}`),
  );
}

/** Nothing new because the negotiations that fit have all been had with these criteria (they would end the same way). */
function alreadyNegotiatedNote(agent: { name: string; type: string } | undefined): string {
  const name = agent?.name ?? 'This agent';
  if (agent?.type === 'broker')
    return `No new match: every borrower and lender that ${name} fits have already negotiated with each other; change the criteria to look again`;
  const counterpart = agent?.type === 'lender' ? 'borrower' : 'lender';
  return `No new match: ${name} has already negotiated with every ${counterpart} that fits; change the criteria to look again`;
}

/** Nothing new because every counterpart that would fit is on the other side of the sandbox rule (docs/behaviour/matching.md). */
function sandboxNote(agent: { name: string; type: string; isDemo?: true }, threshold: number): string {
  const counterparts = agent.type === 'lender' ? 'borrowers' : 'lenders';
  const kind = agent.isDemo ? 'real agents' : 'demo agents';
  return `No new match at ${threshold} or more for ${agent.name}: the ${counterparts} that would fit are ${kind}. ${DEMO_SANDBOX_RULE}`;
}
