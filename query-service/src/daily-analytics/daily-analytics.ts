import type pg from 'pg';
import { comparePositions, START } from '@pf/events';
import { analyticsCheckpointName, loadCheckpoint, saveCheckpoint, type AnalyticsHandler, type RecordedEvent } from '@pf/infra';

/** The daily analytics consumer: its checkpoint, Kafka group and dedup scope, and the table it writes. */
export const DAILY_ANALYTICS_CONSUMER = 'daily';
export const DAILY_ANALYTICS_CHECKPOINT = analyticsCheckpointName(DAILY_ANALYTICS_CONSUMER);
export const DAILY_ANALYTICS_TABLES: readonly string[] = ['analytics_stream_daily'];

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

interface Counted {
  day: string;
  stream: string;
  type: string;
  count: number;
  deals: number;
  amount: number;
}

/**
 * Events per stream, type and day, and the deals agreed among them (count and total loan amount). Kept per stream
 * so that a read counts only the streams of the reader's firm (readDailyAnalytics). Counting is commutative, so
 * the fold does not depend on the order of events across streams (Kafka gives order per stream only); each event
 * must be handed over once (the analytics source's claims, or a rebuild's single pass).
 */
export async function countDaily(client: pg.ClientBase, events: readonly RecordedEvent[]): Promise<void> {
  const counted = new Map<string, Counted>();
  for (const event of events) {
    const day = utcDay(event.recordedAt);
    const key = `${day}|${event.stream}|${event.type}`;
    const entry = counted.get(key) ?? { day, stream: event.stream, type: event.type, count: 0, deals: 0, amount: 0 };
    entry.count += 1;
    if (event.type === 'DealAgreed') {
      entry.deals += 1;
      entry.amount += event.data.loanAmount;
    }
    counted.set(key, entry);
  }
  const rows = [...counted.values()];
  await client.query(
    `insert into analytics_stream_daily (day, stream, type, count, deals, total_loan_amount)
     select * from unnest($1::date[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[])
     on conflict (day, stream, type) do update set count = analytics_stream_daily.count + excluded.count,
       deals = analytics_stream_daily.deals + excluded.deals,
       total_loan_amount = analytics_stream_daily.total_loan_amount + excluded.total_loan_amount`,
    [
      rows.map((row) => row.day),
      rows.map((row) => row.stream),
      rows.map((row) => row.type),
      rows.map((row) => row.count),
      rows.map((row) => row.deals),
      rows.map((row) => row.amount),
    ],
  );
}

/**
 * The consumer's handler: the counts, then its checkpoint moved forward to the furthest event counted. From the
 * event store the source saves it as well; from Kafka, which keeps no checkpoint, this is what shows how far the
 * counts stand, so a live rebuild's switch moves it from there and never back (as the facts' handler does,
 * read-models/analytics/consumer.ts).
 */
export const dailyAnalytics: AnalyticsHandler = async (events, client) => {
  await countDaily(client, events);
  const furthest = events.reduce((best, event) => (comparePositions(event.position, best) > 0 ? event.position : best), START);
  if (comparePositions(furthest, await loadCheckpoint(client, DAILY_ANALYTICS_CHECKPOINT)) > 0) {
    await saveCheckpoint(client, DAILY_ANALYTICS_CHECKPOINT, furthest);
  }
};

export interface DailyAnalytics {
  readonly days: number;
  readonly events: { day: string; type: string; count: number }[];
  readonly deals: { day: string; deals: number; totalLoanAmount: number }[];
}

/**
 * The last `days` days of the firm's own events: those of the streams the event feed answers the firm (its agents,
 * the conversations and deals they take part in, their matches and documents: rm_feed_streams), so a firm that
 * has done nothing reads nothing, whatever other firms do (docs/decisions/firms-and-visibility.md). A person's own
 * settings belong to no firm and are not counted.
 */
export async function readDailyAnalytics(pool: pg.Pool, days: number, firmId: string): Promise<DailyAnalytics> {
  // bigint sums are numerics, cast to int8 and read as numbers (infra/src/db/pool.ts).
  const { rows } = await pool.query<{ day: string; type: string; count: number; deals: number; amount: number }>(
    `select to_char(d.day, 'YYYY-MM-DD') as day, d.type, sum(d.count)::int8 as count, sum(d.deals)::int8 as deals,
            sum(d.total_loan_amount)::int8 as amount
     from analytics_stream_daily d join rm_feed_streams s on s.stream = d.stream
     where d.day >= current_date - ($1::int - 1) and $2 = any(s.firms)
     group by d.day, d.type order by d.day, d.type`,
    [days, firmId],
  );
  const deals = new Map<string, { deals: number; totalLoanAmount: number }>();
  for (const row of rows) {
    if (row.deals === 0) continue;
    const day = deals.get(row.day) ?? { deals: 0, totalLoanAmount: 0 };
    day.deals += row.deals;
    day.totalLoanAmount += row.amount;
    deals.set(row.day, day);
  }
  return {
    days,
    events: rows.map(({ day, type, count }) => ({ day, type, count })),
    deals: [...deals].map(([day, totals]) => ({ day, ...totals })),
  };
}
