import type pg from 'pg';
import type { StatsView } from '@pf/events';

/**
 * The dashboard's figures, counted from the agents, matches-found and conversations read models (stats keep no
 * tables of their own). Success rate: agreed over finished negotiations (agreed or no agreement), as a whole
 * percentage. Every count starts from the user's own rows through an index (owner, then primary keys), so
 * the time grows with the user's data, not with everyone's.
 */
export async function userStats(pool: pg.Pool, userId: string): Promise<StatsView> {
  const result = await pool.query(
    `select
       (select count(*) from rm_agents where owner_id = $1 and is_active and not is_deleted) as active_agents,
       (select count(*) from rm_match_parties where owner_id = $1) as matches_found,
       c.active, c.agreed, c.finished
     from (
       select count(*) filter (where status = 'active') as active,
              count(*) filter (where outcome = 'agreed') as agreed,
              count(*) filter (where outcome in ('agreed', 'no_agreement')) as finished
       from rm_conversations
       where id = any (array(select distinct conversation_id from rm_participants where owner_id = $1))
     ) c`,
    [userId],
  );
  const row = result.rows[0]!;
  return {
    activeAgents: row.active_agents,
    activeConversations: row.active,
    matchesFound: row.matches_found,
    successRate: row.finished > 0 ? Math.round((100 * row.agreed) / row.finished) : 0,
  };
}
