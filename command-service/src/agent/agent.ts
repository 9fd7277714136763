import type { AgentType, ConcessionStrategy, Criteria, EventOf } from '@pf/events';
import { NotFound } from '@pf/infra';
import type { Decider } from '../handle-command';

export type AgentEvent = EventOf<'AgentCreated' | 'AgentUpdated' | 'AgentPaused' | 'AgentResumed' | 'AgentDeleted'>;

export type AgentState =
  | { status: 'none' }
  | {
      status: 'active' | 'paused' | 'deleted';
      agentId: number;
      ownerId: string;
      name: string;
      type: AgentType;
      description: string;
      criteria: Criteria | null;
      strategy: ConcessionStrategy | null;
    };

export type AgentCommand =
  | {
      type: 'CreateAgent';
      agentId: number;
      ownerId: string;
      name: string;
      agentType: AgentType;
      description: string;
      criteria: Criteria | null;
      strategy?: ConcessionStrategy;
    }
  | {
      type: 'ChangeAgent';
      agentId: number;
      actorId: string;
      isActive?: boolean;
      name?: string;
      description?: string;
      criteria?: Criteria | null;
      strategy?: ConcessionStrategy;
    }
  | { type: 'DeleteAgent'; agentId: number; actorId: string };

type Existing = Exclude<AgentState, { status: 'none' }>;

/** Someone else's agent, a deleted one and a missing one look the same from outside: 404. */
function ownedBy(state: AgentState, agentId: number, actorId: string): Existing & { status: 'active' | 'paused' } {
  if (state.status === 'none' || state.status === 'deleted' || state.ownerId !== actorId) {
    throw new NotFound(`Agent ${agentId} not found`);
  }
  return state as Existing & { status: 'active' | 'paused' };
}

const sameCriteria = (a: Criteria | null, b: Criteria | null) => JSON.stringify(a) === JSON.stringify(b);

export function decide(command: AgentCommand, state: AgentState): AgentEvent[] {
  switch (command.type) {
    case 'CreateAgent': {
      if (state.status !== 'none') return [];
      const { agentId, ownerId, name, agentType, description, criteria, strategy } = command;
      return [
        { type: 'AgentCreated', data: { agentId, ownerId, name, type: agentType, description, criteria, ...(strategy ? { strategy } : {}) } },
      ];
    }
    case 'ChangeAgent': {
      const agent = ownedBy(state, command.agentId, command.actorId);
      const events: AgentEvent[] = [];
      const next = {
        name: command.name ?? agent.name,
        description: command.description ?? agent.description,
        criteria: command.criteria === undefined ? agent.criteria : command.criteria,
      };
      const strategy = command.strategy && command.strategy !== agent.strategy ? { strategy: command.strategy } : {};
      if (
        next.name !== agent.name ||
        next.description !== agent.description ||
        !sameCriteria(next.criteria, agent.criteria) ||
        strategy.strategy
      ) {
        events.push({ type: 'AgentUpdated', data: { agentId: agent.agentId, ...next, ...strategy } });
      }
      if (command.isActive === false && agent.status === 'active') {
        events.push({ type: 'AgentPaused', data: { agentId: agent.agentId } });
      }
      if (command.isActive === true && agent.status === 'paused') {
        events.push({ type: 'AgentResumed', data: { agentId: agent.agentId } });
      }
      return events;
    }
    case 'DeleteAgent': {
      const agent = ownedBy(state, command.agentId, command.actorId);
      return [{ type: 'AgentDeleted', data: { agentId: agent.agentId } }];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}

export function evolve(state: AgentState, event: AgentEvent): AgentState {
  switch (event.type) {
    case 'AgentCreated': {
      const { agentId, ownerId, name, type, description, criteria, strategy } = event.data;
      return { status: 'active', agentId, ownerId, name, type, description, criteria, strategy: strategy ?? null };
    }
    case 'AgentUpdated': {
      if (state.status === 'none') return state;
      const { name, description, criteria, strategy } = event.data;
      return { ...state, name, description, criteria, strategy: strategy ?? state.strategy };
    }
    case 'AgentPaused':
      return state.status === 'none' ? state : { ...state, status: 'paused' };
    case 'AgentResumed':
      return state.status === 'none' ? state : { ...state, status: 'active' };
    case 'AgentDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
    default:
      return state;
  }
}

export const agentDecider: Decider<AgentCommand, AgentState, AgentEvent> = {
  initialState: { status: 'none' },
  decide,
  evolve,
};
