import type pg from 'pg';
import { PAGE_LIMIT_DEFAULT, type LeadPage, type LeadPageQuery, type LeadView } from '@pf/events';
import { containsPattern, readBoardPage } from '../../projection-kit/paging';
import { leadStanding, type LeadDoc } from './evolve';
import { describeRequirement, REQUIREMENT_SQL } from './requirement';

export function toLeadView(doc: LeadDoc): LeadView {
  const scores = Object.values(doc.matches);
  const run = doc.lastMatchRun;
  return {
    id: doc.id,
    type: doc.type,
    name: doc.name,
    requirement: describeRequirement(doc.type, doc.criteria),
    criteria: doc.criteria,
    ...leadStanding(doc),
    matchScore: scores.length > 0 ? Math.max(...scores) : null,
    matchCount: scores.length,
    createdDate: doc.createdAt,
    lastContact: doc.lastContact,
    lastMatchRun: run && { requestedAt: run.requestedAt, finishedAt: run.finishedAt, newMatches: run.newMatches },
    sourcing: doc.sourcing ?? null,
    ...(doc.isDemo ? { isDemo: true as const } : {}),
  };
}

/** The user's agents as leads, newest first. */
export async function listLeads(pool: pg.Pool, userId: string): Promise<LeadView[]> {
  const result = await pool.query<{ doc: LeadDoc }>(
    `select doc from rm_lead_board where owners @> array[$1]::text[] order by (doc->>'id')::bigint desc`,
    [userId],
  );
  return result.rows.map((row) => toLeadView(row.doc));
}

/**
 * One page of the firm's leads in the list's order (newest agent first), searched by name or requirements (any
 * part, any case) and filtered by type on the server (events/src/paging.ts).
 */
export async function pageLeads(pool: pg.Pool, firmId: string, query: LeadPageQuery): Promise<LeadPage> {
  const page = await readBoardPage<{ doc: LeadDoc }>(
    pool,
    {
      columns: 'b.doc',
      from: 'rm_lead_board b',
      where: `b.owners @> array[$1]::text[] and ($2::text is null or b.doc->>'name' ilike $2 or ${REQUIREMENT_SQL} ilike $2)
        and ($3::text is null or b.doc->>'type' = $3)`,
      values: [firmId, query.q ? containsPattern(query.q) : null, query.type ?? null],
      sort: "(b.doc->>'id')::bigint",
      sortType: 'bigint',
      tie: 'b.id',
    },
    query.cursor,
    query.limit ?? PAGE_LIMIT_DEFAULT,
  );
  return { items: page.rows.map((row) => toLeadView(row.doc)), nextCursor: page.nextCursor, total: page.total };
}
