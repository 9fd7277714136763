import { agentFromCreation, applyAgentEvent, canSeeAgent, type AgentCommand, type AgentFacts, type EventOf } from '@pf/events';
import { Invalid, NotFound } from '@pf/infra';
import type { Decider } from '../handle-command';

export type { AgentCommand } from '@pf/events';

export type AgentEvent = EventOf<'AgentCreated' | 'AgentUpdated' | 'AgentPaused' | 'AgentResumed' | 'AgentDeleted'>;

/**
 * The agent's decision state: its facts as the shared agents view's rules fold them (events/src/views/agents.ts),
 * plus the status the decisions branch on. A separate fold from the agents view only in what it keeps: no
 * recorded times (a decider's evolve sees none, and no decision needs them) and a status instead of flags.
 */
export type AgentState = { status: 'none' } | (AgentFacts & { status: 'active' | 'paused' | 'deleted'; agentId: number });
type Existing = Exclude<AgentState, { status: 'none' }>;

/** Another firm's agent, a deleted one and a missing one look the same from outside: 404 (visibility.ts). */
function ownedBy(state: AgentState, agentId: number, actorFirmId: string): Existing & { status: 'active' | 'paused' } {
  if (state.status === 'none' || state.status === 'deleted' || !canSeeAgent(state, actorFirmId)) {
    throw new NotFound(`Agent ${agentId} not found`);
  }
  return state as Existing & { status: 'active' | 'paused' };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function decide(command: AgentCommand, state: AgentState): AgentEvent[] {
  switch (command.type) {
    case 'CreateAgent': {
      if (state.status !== 'none') return [];
      const { agentId, ownerId, firmId, isDemo, name, agentType, description, criteria, strategy, autoNegotiate, responseTime } = command;
      const profile = { ...(command.products ? { products: command.products } : {}), ...(command.needs ? { needs: command.needs } : {}) };
      const manual = autoNegotiate === false ? { autoNegotiate: false as const } : {};
      const answerWithin = responseTime ? { responseTime } : {};
      return [
        {
          type: 'AgentCreated',
          data: {
            agentId,
            ownerId,
            ...(firmId ? { firmId } : {}),
            name,
            type: agentType,
            description,
            criteria,
            ...(strategy ? { strategy } : {}),
            ...manual,
            ...answerWithin,
            ...profile,
            ...(isDemo ? { isDemo } : {}),
          },
        },
      ];
    }
    case 'ChangeAgent': {
      const agent = ownedBy(state, command.agentId, command.actorFirmId);
      if (command.products && agent.type !== 'lender') throw new Invalid('products: only a lender has products');
      if (command.needs && agent.type !== 'borrower') throw new Invalid('needs: only a borrower has needs');
      const events: AgentEvent[] = [];
      const next = {
        name: command.name ?? agent.name,
        description: command.description ?? agent.description,
        criteria: command.criteria === undefined ? agent.criteria : command.criteria,
        products: command.products === undefined ? agent.products : command.products,
        needs: command.needs === undefined ? agent.needs : command.needs,
      };
      const strategy = command.strategy && command.strategy !== agent.strategy ? { strategy: command.strategy } : {};
      if (
        next.name !== agent.name ||
        next.description !== agent.description ||
        !same(next.criteria, agent.criteria) ||
        !same(next.products, agent.products) ||
        !same(next.needs, agent.needs) ||
        strategy.strategy
      ) {
        const { products, needs, ...rest } = next;
        // Recorded when the agent has (or had) them, so an agent without a range or needs updates as before.
        const profile = {
          ...(products !== null || agent.products !== null ? { products } : {}),
          ...(needs !== null || agent.needs !== null ? { needs } : {}),
        };
        events.push({ type: 'AgentUpdated', data: { agentId: agent.agentId, ...rest, ...profile, ...strategy } });
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
      const agent = ownedBy(state, command.agentId, command.actorFirmId);
      return [{ type: 'AgentDeleted', data: { agentId: agent.agentId } }];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}

const decisionState = (agent: AgentFacts): Existing => ({
  ...agent,
  agentId: agent.id,
  status: agent.isDeleted ? 'deleted' : agent.isActive ? 'active' : 'paused',
});

/** The view's rules: the first AgentCreated counts, deletion is final, an update without a strategy keeps it. */
function evolve(state: AgentState, event: AgentEvent): AgentState {
  if (event.type === 'AgentCreated') return state.status === 'none' ? decisionState(agentFromCreation(event.data)) : state;
  if (state.status === 'none') return state;
  const changed = applyAgentEvent(state, event);
  return changed === state ? state : decisionState(changed);
}

export const agentDecider: Decider<AgentCommand, AgentState, AgentEvent> = {
  initialState: { status: 'none' },
  decide,
  evolve,
};
