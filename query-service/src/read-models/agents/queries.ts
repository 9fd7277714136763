import type pg from 'pg';
import { agentViewOf, type AgentView } from '@pf/events';
import { AGENT_COLUMNS, agentFromRow } from './rows';

/** A user's agents, newest first; deleted ones are gone. */
export async function listAgents(pool: pg.Pool, ownerId: string): Promise<AgentView[]> {
  const result = await pool.query(`select ${AGENT_COLUMNS} from rm_agents where owner_id = $1 and not is_deleted order by id desc`, [ownerId]);
  return result.rows.map((row) => agentViewOf(agentFromRow(row))!);
}
