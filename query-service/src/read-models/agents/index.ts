import type { ReadModel } from '../../projection-kit/read-model';
import { projectAgents } from './projection';
import { agentsMigrations } from './schema';

export { findAgent, listAgents, pageAgents } from './queries';

/** Every user's agents (docs/behaviour/agents.md), folded by the shared agents view. */
export const agentsReadModel: ReadModel = { name: 'agents', tables: ['rm_agents'], migrations: agentsMigrations, project: projectAgents };
