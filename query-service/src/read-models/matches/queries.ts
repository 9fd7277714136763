import { firmSuccessRate } from '../stats/queries';
import type pg from 'pg';
import {
  leadStatusOf,
  PAGE_LIMIT_DEFAULT,
  recordedMatchExplanation,
  type MatchingStatsView,
  type MatchPage,
  type MatchPageQuery,
  type MatchView,
} from '@pf/events';
import { readBoardPage } from '../../projection-kit/paging';
import { matchProgress, type MatchDoc } from './evolve';

export function toMatchView(doc: MatchDoc): MatchView {
  const name = (agentId: number) => doc.names[String(agentId)] ?? `Agent #${agentId}`;
  return {
    id: doc.matchId,
    borrower: name(doc.borrowerAgentId),
    lender: name(doc.lenderAgentId),
    broker: doc.brokerAgentId === null ? null : name(doc.brokerAgentId),
    borrowerAgentId: doc.borrowerAgentId,
    lenderAgentId: doc.lenderAgentId,
    loanAmount: doc.deal?.loanAmount ?? null,
    matchScore: doc.score,
    ...matchProgress(doc),
    conversationId: doc.conversationId,
    dealId: doc.dealId,
    // Stored as recorded: a match recorded in the old words (meets / near / fails) answers as pass / warn / fail.
    explanation: recordedMatchExplanation.parse(doc.explanation),
    createdDate: doc.createdAt,
    estimatedCompletion: doc.deal?.targetCompletion ?? null,
  };
}

/** Matches the user's agents are in, newest first. */
export async function listMatches(pool: pg.Pool, userId: string): Promise<MatchView[]> {
  const result = await pool.query<{ doc: MatchDoc }>(
    `select doc from rm_match_board where owners @> array[$1]::text[] order by doc->>'createdAt' desc, id`,
    [userId],
  );
  return result.rows.map((row) => toMatchView(row.doc));
}

/** One page of the matches the firm's agents are in, in the list's order (newest first; events/src/paging.ts). */
export async function pageMatches(pool: pg.Pool, firmId: string, query: MatchPageQuery): Promise<MatchPage> {
  const page = await readBoardPage<{ doc: MatchDoc }>(
    pool,
    {
      columns: 'b.doc',
      from: 'rm_match_board b',
      where: 'b.owners @> array[$1]::text[]',
      values: [firmId],
      sort: "b.doc->>'createdAt'",
      sortType: 'text',
      tie: 'b.id',
    },
    query.cursor,
    query.limit ?? PAGE_LIMIT_DEFAULT,
  );
  return { items: page.rows.map((row) => toMatchView(row.doc)), nextCursor: page.nextCursor, total: page.total };
}

/**
 * The four figures for Matching & Leads: active leads (the firm's leads whose status is Active, by the one rule the
 * list's badges use: leadStatusOf), successful matches (terms agreed), the one success rate and the mean match
 * score (events/src/success-rate.ts).
 */
export async function matchingStats(pool: pg.Pool, userId: string): Promise<MatchingStatsView> {
  const result = await pool.query<{ agreed: number; score: number | null }>(
    `select count(*) filter (where doc->>'outcome' = 'agreed')::int as agreed, avg((doc->>'score')::numeric)::float8 as score
     from rm_match_board where owners @> array[$1]::text[]`,
    [userId],
  );
  // At most four rows (paused or not, matched or not): the status rule is applied to each, not restated in SQL.
  const leads = await pool.query<{ is_active: boolean; matched: boolean; n: number }>(
    `select (doc->>'isActive')::boolean as is_active, doc->'matches' <> '{}'::jsonb as matched, count(*)::int as n
     from rm_lead_board where owners @> array[$1]::text[] group by 1, 2`,
    [userId],
  );
  const activeLeads = leads.rows
    .filter((r) => leadStatusOf({ isActive: r.is_active, matchCount: r.matched ? 1 : 0 }) === 'active')
    .reduce((n, r) => n + r.n, 0);
  const row = result.rows[0]!;
  return {
    activeLeads,
    successfulMatches: row.agreed,
    // The one success rate, over the firm's conversations (the dashboard's figure).
    successRate: await firmSuccessRate(pool, userId),
    averageMatchScore: row.score === null ? null : Math.round(row.score),
  };
}
