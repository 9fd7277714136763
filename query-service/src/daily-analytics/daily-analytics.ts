import type pg from 'pg';
import type { EventOf } from '@pf/events';
import type { AnalyticsHandler } from '@pf/infra';

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Events per type per day and agreed deals per day (count and total loan amount). Counting is
 * commutative, so the handler does not depend on the order of events across streams (Kafka gives
 * order per stream only); the source hands each event id over once.
 */
export const dailyAnalytics: AnalyticsHandler = async (events, client) => {
  const perTypeDay = new Map<string, { day: string; type: string; count: number }>();
  const dealsPerDay = new Map<string, { deals: number; amount: number }>();
  for (const event of events) {
    const day = utcDay(event.recordedAt);
    const key = `${day}|${event.type}`;
    const entry = perTypeDay.get(key) ?? { day, type: event.type, count: 0 };
    entry.count += 1;
    perTypeDay.set(key, entry);
    if (event.type === 'DealAgreed') {
      const deal = event.data as EventOf<'DealAgreed'>['data'];
      const totals = dealsPerDay.get(day) ?? { deals: 0, amount: 0 };
      totals.deals += 1;
      totals.amount += deal.loanAmount;
      dealsPerDay.set(day, totals);
    }
  }
  const rows = [...perTypeDay.values()];
  await client.query(
    `insert into analytics_events_daily (day, type, count)
     select * from unnest($1::date[], $2::text[], $3::bigint[])
     on conflict (day, type) do update set count = analytics_events_daily.count + excluded.count`,
    [rows.map((row) => row.day), rows.map((row) => row.type), rows.map((row) => row.count)],
  );
  for (const [day, totals] of dealsPerDay) {
    await client.query(
      `insert into analytics_deals_daily (day, deals, total_loan_amount) values ($1, $2, $3)
       on conflict (day) do update set deals = analytics_deals_daily.deals + excluded.deals,
         total_loan_amount = analytics_deals_daily.total_loan_amount + excluded.total_loan_amount`,
      [day, totals.deals, totals.amount],
    );
  }
};

export interface DailyAnalytics {
  readonly days: number;
  readonly events: { day: string; type: string; count: number }[];
  readonly deals: { day: string; deals: number; totalLoanAmount: number }[];
}

/** The last `days` days, platform-wide (analytics are about the market, not one operator's agents). */
export async function readDailyAnalytics(pool: pg.Pool, days: number): Promise<DailyAnalytics> {
  const since = `current_date - ($1::int - 1)`;
  // bigint columns are numbers here (infra/src/db/pool.ts).
  const events = await pool.query<DailyAnalytics['events'][number]>(
    `select to_char(day, 'YYYY-MM-DD') as day, type, count from analytics_events_daily where day >= ${since} order by day, type`,
    [days],
  );
  const deals = await pool.query<{ day: string; deals: number; total_loan_amount: number }>(
    `select to_char(day, 'YYYY-MM-DD') as day, deals, total_loan_amount from analytics_deals_daily where day >= ${since} order by day`,
    [days],
  );
  return {
    days,
    events: events.rows,
    deals: deals.rows.map((row) => ({ day: row.day, deals: row.deals, totalLoanAmount: row.total_loan_amount })),
  };
}
