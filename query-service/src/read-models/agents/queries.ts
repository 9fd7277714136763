import type pg from 'pg';
import { agentViewOf, cursorKeys, PAGE_LIMIT_DEFAULT, type AgentPage, type AgentPageQuery, type AgentView } from '@pf/events';
import { containsPattern, decodeCursor, encodeCursor } from '../../projection-kit/paging';
import { AGENT_COLUMNS, agentFromRow, type AgentRow } from './rows';

/** A firm's agents (visibility.ts: canSeeAgent), newest first; deleted ones are gone. */
export async function listAgents(pool: pg.Pool, firmId: string): Promise<AgentView[]> {
  const result = await pool.query<AgentRow>(
    `select ${AGENT_COLUMNS} from rm_agents where firm_id = $1 and not is_deleted order by id desc`,
    [firmId],
  );
  return result.rows.map((row) => agentViewOf(agentFromRow(row))!);
}

/** One of a firm's agents, or null (another firm's, deleted, or none). */
export async function findAgent(pool: pg.Pool, firmId: string, id: number): Promise<AgentView | null> {
  const result = await pool.query<AgentRow>(`select ${AGENT_COLUMNS} from rm_agents where id = $1 and firm_id = $2 and not is_deleted`, [
    id,
    firmId,
  ]);
  const row = result.rows[0];
  return row ? agentViewOf(agentFromRow(row)) : null;
}

/**
 * One page of a firm's agents, newest first: searched by name (any part, any case) and filtered by type on the
 * server, with the cursor of the next page and how many match in all (events/src/paging.ts).
 */
export async function pageAgents(pool: pg.Pool, firmId: string, query: AgentPageQuery): Promise<AgentPage> {
  const after = decodeCursor(query.cursor, cursorKeys.agents);
  const limit = query.limit ?? PAGE_LIMIT_DEFAULT;
  const filters = `firm_id = $1 and not is_deleted and ($2::text is null or name ilike $2) and ($3::text is null or type = $3)`;
  const values = [firmId, query.q ? containsPattern(query.q) : null, query.type ?? null];
  const [rows, count] = await Promise.all([
    pool.query<AgentRow>(
      `select ${AGENT_COLUMNS} from rm_agents where ${filters} and ($4::bigint is null or id < $4) order by id desc limit $5`,
      [...values, after?.[0] ?? null, limit + 1],
    ),
    pool.query<{ total: number }>(`select count(*)::int as total from rm_agents where ${filters}`, values),
  ]);
  const items = rows.rows.slice(0, limit).map((row) => agentViewOf(agentFromRow(row))!);
  const more = rows.rows.length > limit;
  return { items, nextCursor: more ? encodeCursor([items[items.length - 1]!.id]) : null, total: count.rows[0]!.total };
}
