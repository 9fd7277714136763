import type pg from 'pg';
import type { LeadView } from '@pf/events';
import { leadStanding, type LeadDoc } from './evolve';
import { describeRequirement } from './requirement';

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
