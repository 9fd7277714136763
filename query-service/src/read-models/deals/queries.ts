import type pg from 'pg';
import {
  PAGE_LIMIT_DEFAULT,
  servedOfferFigures,
  type DealDetailView,
  type DealPage,
  type DealPageQuery,
  type DealStatsView,
  type DealView,
} from '@pf/events';
import { containsPattern, readBoardPage } from '../../projection-kit/paging';
import type { DealDoc } from './evolve';

/**
 * A deal as served: its row, with the agreed terms' regulated figures computed here from the terms and product by the
 * one module of offers (docs/behaviour/offers.md), so the screens show them and compute none. Rows from before
 * products have no product or procuration fee.
 */
function toView(doc: DealDoc): DealView {
  const { owners: _owners, timeline: _timeline, borrowerAgentId: _b, lenderAgentId: _l, brokerAgentId: _k, ...view } = doc;
  const product = doc.product ?? null;
  const terms = { loanAmount: doc.loanAmount, interestRate: doc.interestRate, termYears: doc.term, arrangementFee: doc.arrangementFee };
  return { ...view, product, figures: servedOfferFigures(terms, product), procurationFee: doc.procurationFee ?? null };
}

/** The user's deals, newest first (the owners of a deal's agents see it). */
export async function listDeals(pool: pg.Pool, userId: string): Promise<DealView[]> {
  const result = await pool.query<{ doc: DealDoc }>(
    `select doc from rm_deal_board where owners @> array[$1]::text[] order by doc->>'dateCreated' desc, id`,
    [userId],
  );
  return result.rows.map((row) => toView(row.doc));
}

/**
 * One page of the firm's deals in the list's order (newest first), searched by property address or borrower
 * name (any part, any case) and filtered by status on the server (events/src/paging.ts).
 */
export async function pageDeals(pool: pg.Pool, firmId: string, query: DealPageQuery): Promise<DealPage> {
  const page = await readBoardPage<{ doc: DealDoc }>(
    pool,
    {
      columns: 'b.doc',
      from: 'rm_deal_board b',
      where: `b.owners @> array[$1]::text[] and ($2::text is null or b.doc->>'propertyAddress' ilike $2 or b.doc->>'borrowerName' ilike $2)
        and ($3::text is null or b.doc->>'status' = $3)`,
      values: [firmId, query.q ? containsPattern(query.q) : null, query.status ?? null],
      sort: "b.doc->>'dateCreated'",
      sortType: 'text',
      tie: 'b.id',
    },
    query.cursor,
    query.limit ?? PAGE_LIMIT_DEFAULT,
  );
  return { items: page.rows.map((row) => toView(row.doc)), nextCursor: page.nextCursor, total: page.total };
}

export async function findDeal(pool: pg.Pool, userId: string, dealId: string): Promise<DealDetailView | null> {
  const result = await pool.query<{ doc: DealDoc }>('select doc from rm_deal_board where id = $1 and owners @> array[$2]::text[]', [
    dealId,
    userId,
  ]);
  const doc = result.rows[0]?.doc;
  return doc ? { ...toView(doc), timeline: doc.timeline } : null;
}

/**
 * The four figures: deals in progress (status active), the value of the loans not cancelled, completed
 * over finished (completed or cancelled), and the mean days from opening to completion.
 */
export async function dealStats(pool: pg.Pool, userId: string): Promise<DealStatsView> {
  const result = await pool.query<{ active: number; value: number; completed: number; finished: number; days: number | null }>(
    `select count(*) filter (where doc->>'status' = 'active')::int as active,
            coalesce(sum((doc->>'loanAmount')::numeric) filter (where doc->>'status' <> 'cancelled'), 0)::float8 as value,
            count(*) filter (where doc->>'status' = 'completed')::int as completed,
            count(*) filter (where doc->>'status' in ('completed', 'cancelled'))::int as finished,
            avg(extract(epoch from ((doc->>'completedAt')::timestamptz - (doc->>'dateCreated')::timestamptz)) / 86400)
              filter (where doc->>'completedAt' is not null)::float8 as days
     from rm_deal_board where owners @> array[$1]::text[]`,
    [userId],
  );
  const row = result.rows[0]!;
  return {
    activeDeals: row.active,
    totalValue: row.value,
    completionRate: row.finished > 0 ? Math.round((100 * row.completed) / row.finished) : null,
    averageDaysToComplete: row.days === null ? null : Math.round(row.days * 10) / 10,
  };
}
