import type pg from 'pg';
import { ENDED_OUTCOMES, successRate, type StatsView } from '@pf/events';

/**
 * The dashboard's figures, counted from the agents, matches-found and conversations read models (stats keep no
 * tables of their own). Success rate: agreed over ended negotiations (any outcome), to one decimal place (the one
 * success rate: events/src/success-rate.ts). A firm's figures (rm_match_parties.owner_id holds
 * firm ids). Every count starts from the firm's own rows through an index (owner, then primary keys), so
 * the time grows with the user's data, not with everyone's.
 */
/**
 * The firm's ended negotiations for the one success rate (events/src/success-rate.ts): the dashboard and
 * Matching & Leads count the same conversations.
 */
export async function firmSuccessRate(pool: pg.Pool, firmId: string): Promise<number | null> {
  const result = await pool.query<{ agreed: number; ended: number }>(
    `select count(*) filter (where outcome = 'agreed')::int as agreed, count(*) filter (where outcome = any($2::text[]))::int as ended
     from rm_conversations where id = any (array(select distinct conversation_id from rm_participants where firm_id = $1))`,
    [firmId, ENDED_OUTCOMES],
  );
  return successRate(result.rows[0]!.agreed, result.rows[0]!.ended);
}

export async function userStats(pool: pg.Pool, firmId: string): Promise<StatsView> {
  // count(*) is bigint, a number here (infra/src/db/pool.ts).
  const result = await pool.query<{ active_agents: number; matches_found: number; active: number; agreed: number; finished: number }>(
    `select
       (select count(*) from rm_agents where firm_id = $1 and is_active and not is_deleted) as active_agents,
       (select count(*) from rm_match_parties where owner_id = $1) as matches_found,
       c.active, c.agreed, c.finished
     from (
       select count(*) filter (where status = 'active') as active,
              count(*) filter (where outcome = 'agreed') as agreed,
              count(*) filter (where outcome = any($2::text[])) as finished
       from rm_conversations
       where id = any (array(select distinct conversation_id from rm_participants where firm_id = $1))
     ) c`,
    [firmId, ENDED_OUTCOMES],
  );
  const row = result.rows[0]!;
  return {
    activeAgents: row.active_agents,
    activeConversations: row.active,
    matchesFound: row.matches_found,
    successRate: successRate(row.agreed, row.finished),
  };
}
