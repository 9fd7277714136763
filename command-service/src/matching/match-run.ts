import { canSeeAgent, type EventOf, type SourcingResult } from '@pf/events';
import { Invalid, NotFound } from '@pf/infra';
import type { AgentState } from '../agent/agent';
import type { Decider } from '../handle-command';

export type MatchRunEvent = EventOf<'MatchRequested' | 'MatchRunCompleted'>;
export type MatchRunState = { status: 'none' } | { status: 'requested' | 'answered'; agentId: number };
export type MatchRunCommand =
  | { type: 'RequestMatch'; requestId: string; agent: AgentState; agentId: number; actorId: string; actorFirmId: string }
  | { type: 'AnswerMatch'; requestId: string; agentId: number; matchIds: string[]; note: string | null; sourcing?: SourcingResult };

/**
 * Match (Matching & Leads): a person asks the matcher to look for a lead now. The request is an event the
 * automated matcher reacts to (asynchronously, like an agent being resumed); its answer is another event,
 * which the lead shows. The agent, passed in, must be the person's own and active.
 */
function decide(command: MatchRunCommand, state: MatchRunState): MatchRunEvent[] {
  switch (command.type) {
    case 'RequestMatch': {
      const { agent, agentId, actorId, actorFirmId, requestId } = command;
      if (agent.status === 'none' || agent.status === 'deleted' || !canSeeAgent(agent, actorFirmId))
        throw new NotFound(`Agent ${agentId} not found`);
      if (agent.status === 'paused') throw new Invalid(`${agent.name} is paused; resume it before matching`);
      if (state.status !== 'none') return [];
      return [{ type: 'MatchRequested', data: { requestId, agentId, ownerId: actorId } }];
    }
    case 'AnswerMatch': {
      if (state.status !== 'requested') return [];
      const { requestId, agentId, matchIds, note, sourcing } = command;
      return [{ type: 'MatchRunCompleted', data: { requestId, agentId, matchIds, note, ...(sourcing ? { sourcing } : {}) } }];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}

function evolve(state: MatchRunState, event: MatchRunEvent): MatchRunState {
  return event.type === 'MatchRequested'
    ? { status: 'requested', agentId: event.data.agentId }
    : state.status === 'none'
      ? state
      : { ...state, status: 'answered' };
}

export const matchRunDecider: Decider<MatchRunCommand, MatchRunState, MatchRunEvent> = { initialState: { status: 'none' }, decide, evolve };
