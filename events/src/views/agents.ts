import type { AgentType, AgentView, Criteria } from '../agent';
import type { DomainEvent, EventOf } from '../domain-events';
import type { ConcessionStrategy } from '../negotiation';
import type { BorrowerNeeds } from '../products/needs';
import type { ProductRange } from '../products/product';
import type { View } from './view';
import { firmOf } from '../firm';

/**
 * An agent's own facts, as every fold of it keeps them: the views below and the agent's decider on the command
 * side (which adds the status its decisions branch on). A deleted agent is kept (its owner still owns its
 * conversations and matches).
 */
export interface AgentFacts {
  id: number;
  ownerId: string;
  /** The firm it belongs to (firmOf: its owner's firm of one for agents created before firms). */
  firmId: string;
  name: string;
  type: AgentType;
  description: string;
  criteria: Criteria | null;
  /** A lender's product range and a borrower's needs as recorded (null when none: productRangeOf / needsOf upgrade). */
  products: ProductRange | null;
  needs: BorrowerNeeds | null;
  strategy: ConcessionStrategy | null;
  isActive: boolean;
  isDeleted: boolean;
  /** False when created with auto-negotiate off (its owner negotiates its conversations); absent: on. */
  autoNegotiate?: false;
  /** Created by Seed Demo Data (a sandbox: it meets only demo agents of its own firm); absent: a real agent. */
  isDemo?: true;
}

/** An agent as every view of it sees it: its facts and when they were recorded. */
export interface Agent extends AgentFacts {
  createdAt: string;
  updatedAt: string;
}

function agentIdOf(event: DomainEvent): number | null {
  switch (event.type) {
    case 'AgentCreated':
    case 'AgentUpdated':
    case 'AgentPaused':
    case 'AgentResumed':
    case 'AgentDeleted':
      return event.data.agentId;
    default:
      return null;
  }
}

/** An agent as its AgentCreated records it: active, not deleted. */
export function agentFromCreation(data: EventOf<'AgentCreated'>['data']): AgentFacts {
  const { agentId, ownerId, name, type, description, criteria, strategy, autoNegotiate, isDemo, products, needs } = data;
  return {
    id: agentId,
    ownerId,
    firmId: firmOf(data),
    name,
    type,
    description,
    criteria,
    products: products ?? null,
    needs: needs ?? null,
    strategy: strategy ?? null,
    isActive: true,
    isDeleted: false,
    ...(autoNegotiate === false ? { autoNegotiate } : {}),
    ...(isDemo ? { isDemo } : {}),
  };
}

/**
 * What an event changes in an existing agent, with no clock, so that every fold of an agent (the views here,
 * the decider's state) applies the same rules; the same object back when it changes nothing:
 * - events about an agent already deleted change nothing (deletion is final: the decider answers 404 for a
 *   deleted agent, so only a damaged stream could carry them);
 * - an update without a strategy keeps the agent's strategy.
 */
export function applyAgentEvent<T extends AgentFacts>(agent: T, event: DomainEvent): T {
  if (agent.isDeleted) return agent;
  switch (event.type) {
    case 'AgentUpdated': {
      const { name, description, criteria, strategy, products, needs } = event.data;
      return {
        ...agent,
        name,
        description,
        criteria,
        strategy: strategy ?? agent.strategy,
        products: products === undefined ? agent.products : products,
        needs: needs === undefined ? agent.needs : needs,
      };
    }
    case 'AgentPaused':
    case 'AgentResumed':
      return { ...agent, isActive: event.type === 'AgentResumed' };
    case 'AgentDeleted':
      return { ...agent, isActive: false, isDeleted: true };
    default:
      return agent;
  }
}

/**
 * The agents view, the same for the read models (rm_agents, and the lead board on top of it), the gateway and
 * the automation:
 * - an agent exists from its first AgentCreated; a second one for the same id changes nothing, and events
 *   about an agent never created change nothing;
 * - every other change follows applyAgentEvent, and moves `updatedAt` to the event's recorded time (never the clock's).
 */
export function evolveAgent<T extends Agent>(agent: T | null, event: DomainEvent, recordedAt: string): T | Agent | null {
  if (event.type === 'AgentCreated') return agent ?? { ...agentFromCreation(event.data), createdAt: recordedAt, updatedAt: recordedAt };
  if (!agent) return null;
  const changed = applyAgentEvent(agent, event);
  return changed === agent ? agent : { ...changed, updatedAt: recordedAt };
}

export const agentsView: View<number, Agent> = { keyOf: agentIdOf, evolve: evolveAgent };

/** What a client is shown of an agent; a deleted agent is shown as gone. */
export function agentViewOf(agent: Agent): AgentView | null {
  if (agent.isDeleted) return null;
  const { id, name, type, description, criteria, products, needs, strategy, isActive, createdAt, updatedAt, isDemo } = agent;
  return {
    id,
    name,
    type,
    description,
    criteria,
    products,
    needs,
    strategy,
    isActive,
    createdAt,
    updatedAt,
    ...(isDemo ? { isDemo } : {}),
  };
}
