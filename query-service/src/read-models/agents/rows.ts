import type pg from 'pg';
import type { Agent } from '@pf/events';
import { iso } from '../fold-batch';

export const AGENT_COLUMNS =
  'id, owner_id, firm_id, name, type, description, criteria, strategy, is_active, is_deleted, created_at, updated_at';

/** A row of rm_agents as the shared agents view's state (what the projection folds and the queries show). */
export function agentFromRow(row: pg.QueryResultRow): Agent {
  return {
    id: row.id,
    ownerId: row.owner_id,
    firmId: row.firm_id,
    name: row.name,
    type: row.type,
    description: row.description,
    criteria: row.criteria,
    strategy: row.strategy,
    isActive: row.is_active,
    isDeleted: row.is_deleted,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
