import type pg from 'pg';
import { ANALYTICS_PERIOD_DAYS, MARKET_PERIOD_MONTHS, type AnalyticsPeriod, type MarketPeriod, type MarketRegion } from '@pf/events';
import type { DealFact } from './fact-state';
import {
  dealOf,
  leadOf,
  negotiationOf,
  offerOf,
  type AgentRow,
  type DealRow,
  type LeadRow,
  type NegotiationRow,
  type OfferRow,
} from './rows';
import { buildMarket } from './market';
import { dayWindow, monthWindow } from './period';
import { buildAnalyticsReport } from './report';

/** Deals agreed or completed since `since`. */
async function dealsSince(pool: pg.Pool, since: Date): Promise<DealFact[]> {
  const rows = await pool.query<DealRow>(`select * from rm_an_deals where agreed_at >= $1 or completed_at >= $1`, [since]);
  return rows.rows.map(dealOf);
}

/** Each agent's firm (firmOf), as the analytics consumer recorded it. */
async function agentFirms(pool: pg.Pool): Promise<Map<number, string>> {
  const rows = await pool.query<Pick<AgentRow, 'agent_id' | 'firm_id' | 'owner_id'>>(
    'select agent_id, firm_id, owner_id from rm_an_agents',
  );
  return new Map(rows.rows.map((r) => [Number(r.agent_id), r.firm_id ?? r.owner_id ?? '']));
}

const partiesOf = (x: { borrowerAgentId: number | null; lenderAgentId: number | null; brokerAgentId: number | null }) =>
  [x.borrowerAgentId, x.lenderAgentId, x.brokerAgentId].filter((id): id is number => id !== null);

/**
 * Analytics & Reports of one firm (docs/decisions/firms-and-visibility.md): its own agents, and the deals,
 * negotiations and leads one of them took part in; the leaderboard lists only its agents.
 */
export async function readAnalyticsReport(pool: pg.Pool, period: AnalyticsPeriod, firmId: string | null, now = new Date()) {
  const { previousFrom, from } = dayWindow(ANALYTICS_PERIOD_DAYS[period], now);
  const firms = await agentFirms(pool);
  // null: the whole platform (the figures' own tests); the routes always name the asking firm.
  const ours = (agentId: number) => firmId === null || firms.get(agentId) === firmId;
  const involvesUs = (x: Parameters<typeof partiesOf>[0]) => partiesOf(x).some(ours);
  const deals = (await dealsSince(pool, previousFrom)).filter(involvesUs);
  // A deal's negotiation completes as its terms are agreed, so those finished since `previousFrom` include every
  // negotiation behind a deal agreed since then (for the time between its steps).
  const negotiations = await pool.query<NegotiationRow>(`select * from rm_an_negotiations where completed_at >= $1`, [previousFrom]);
  const leads = await pool.query<LeadRow>(`select * from rm_an_leads where created_at >= $1`, [from]);
  const agents = await pool.query<{ id: number; name: string; type: string }>(
    `select agent_id as id, name, type from rm_an_agents where $1::text is null or firm_id = $1`,
    [firmId],
  );
  const report = buildAnalyticsReport(
    {
      deals,
      negotiations: negotiations.rows.map(negotiationOf).filter(involvesUs),
      leads: leads.rows.map(leadOf).filter((lead) => ours(lead.agentId)),
      agents: new Map(agents.rows.map((r) => [Number(r.id), { name: r.name, type: r.type }])),
    },
    period,
    now,
  );
  // The other side of a shared deal is a counterparty, not one of the firm's agents: not on its leaderboard.
  return { ...report, agents: report.agents.filter((row) => ours(row.agentId)) };
}

/**
 * Market Intelligence for a firm: figures across firms only where enough deals of enough firms back them
 * (market.ts: MARKET_MIN_DEALS from MARKET_MIN_FIRMS), lenders named only when they are the firm's own.
 */
export async function readMarket(pool: pg.Pool, region: MarketRegion, period: MarketPeriod, firmId: string | null, now = new Date()) {
  const { previousFrom } = monthWindow(MARKET_PERIOD_MONTHS[period], now);
  const deals = await dealsSince(pool, previousFrom);
  const offers = await pool.query<OfferRow>(`select * from rm_an_offers where at >= $1 and region = $2`, [previousFrom, region]);
  const lenders = await pool.query<{ id: number; name: string; criteria: unknown }>(
    `select agent_id as id, name, criteria from rm_an_agents where type = 'lender'`,
  );
  const firms = await agentFirms(pool);
  return buildMarket(
    {
      viewerFirmId: firmId,
      firmsOf: (x) => [...new Set(partiesOf(x).map((id) => firms.get(id) ?? `no firm: agent ${id}`))],
      deals,
      offers: offers.rows.map(offerOf),
      lenders: new Map(lenders.rows.map((r) => [Number(r.id), { name: r.name, criteria: r.criteria }])),
    },
    region,
    period,
    now,
  );
}
