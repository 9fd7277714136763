import type pg from 'pg';
import type { WeeklyTrends } from '@pf/events';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The dashboard's trends, counted from the read models' own times: what was created in the seven days up to
 * `now` against the seven days before. Agents created (deleted ones left out), conversations started and matches
 * found, each for the firm's agents (matches by their parties, as the figure beside it counts them).
 */
export async function weeklyTrends(pool: pg.Pool, firmId: string, now: Date): Promise<WeeklyTrends> {
  const weekAgo = new Date(now.getTime() - WEEK_MS);
  const twoWeeksAgo = new Date(now.getTime() - 2 * WEEK_MS);
  const result = await pool.query<{
    agents_this: number;
    agents_last: number;
    conversations_this: number;
    conversations_last: number;
    matches_this: number;
    matches_last: number;
  }>(
    `with agents as (
       select created_at from rm_agents where firm_id = $1 and not is_deleted
     ), conversations as (
       select created_at from rm_conversations
       where id = any (array(select distinct conversation_id from rm_participants where firm_id = $1))
     ), matches as (
       select m.created_at from rm_match_parties p join rm_matches m using (match_id) where p.owner_id = $1
     )
     select
       (select count(*) from agents where created_at > $3 and created_at <= $4)::int as agents_this,
       (select count(*) from agents where created_at > $2 and created_at <= $3)::int as agents_last,
       (select count(*) from conversations where created_at > $3 and created_at <= $4)::int as conversations_this,
       (select count(*) from conversations where created_at > $2 and created_at <= $3)::int as conversations_last,
       (select count(*) from matches where created_at > $3 and created_at <= $4)::int as matches_this,
       (select count(*) from matches where created_at > $2 and created_at <= $3)::int as matches_last`,
    [firmId, twoWeeksAgo, weekAgo, now],
  );
  const row = result.rows[0]!;
  return {
    agentsCreated: { thisWeek: row.agents_this, lastWeek: row.agents_last },
    conversationsStarted: { thisWeek: row.conversations_this, lastWeek: row.conversations_last },
    matchesFound: { thisWeek: row.matches_this, lastWeek: row.matches_last },
  };
}
