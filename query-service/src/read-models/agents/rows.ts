import type { Agent } from '@pf/events';
import { iso } from '../../projection-kit/fold-batch';

export const AGENT_COLUMNS =
  'id, owner_id, firm_id, name, type, description, criteria, strategy, is_active, is_deleted, created_at, updated_at, products, needs, is_demo';

/** A row of rm_agents selected with AGENT_COLUMNS, as node-postgres returns it (bigint as number: infra/src/db/pool.ts). */
export interface AgentRow {
  id: number;
  owner_id: string;
  firm_id: Agent['firmId'];
  name: string;
  type: Agent['type'];
  description: Agent['description'];
  criteria: Agent['criteria'];
  strategy: Agent['strategy'];
  is_active: boolean;
  is_deleted: boolean;
  created_at: Date;
  updated_at: Date;
  products: Agent['products'];
  needs: Agent['needs'];
  is_demo: boolean;
}

/** A row of rm_agents as the shared agents view's state (what the projection folds and the queries show). */
export function agentFromRow(row: AgentRow): Agent {
  return {
    id: row.id,
    ownerId: row.owner_id,
    firmId: row.firm_id,
    name: row.name,
    type: row.type,
    description: row.description,
    criteria: row.criteria,
    products: row.products,
    needs: row.needs,
    strategy: row.strategy,
    isActive: row.is_active,
    isDeleted: row.is_deleted,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    ...(row.is_demo ? { isDemo: true as const } : {}),
  };
}
