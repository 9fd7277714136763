import type pg from 'pg';
import { ANALYTICS_PERIOD_DAYS, MARKET_PERIOD_MONTHS, type AnalyticsPeriod, type MarketPeriod, type MarketRegion } from '@pf/events';
import type { DealFact, LeadFact, NegotiationFact, OfferFact } from './facts';
import { dealOf, iso, num } from './rows';
import { buildMarket } from './market';
import { dayWindow, monthWindow } from './period';
import { buildAnalyticsReport } from './report';

/** Deals agreed or completed since `since`. */
async function dealsSince(pool: pg.Pool, since: Date): Promise<DealFact[]> {
  const rows = await pool.query(`select * from rm_an_deals where agreed_at >= $1 or completed_at >= $1`, [since]);
  return rows.rows.map(dealOf);
}

/** Analytics are about the platform's market, not one operator's agents: every signed-in user sees the same figures. */
export async function readAnalyticsReport(pool: pg.Pool, period: AnalyticsPeriod, now = new Date()) {
  const { previousFrom, from } = dayWindow(ANALYTICS_PERIOD_DAYS[period], now);
  const deals = await dealsSince(pool, previousFrom);
  // A deal's negotiation completes as its terms are agreed, so those finished since `previousFrom` include every
  // negotiation behind a deal agreed since then (for the time between its steps).
  const negotiations = await pool.query(`select * from rm_an_negotiations where completed_at >= $1`, [previousFrom]);
  const leads = await pool.query(`select * from rm_an_leads where created_at >= $1`, [from]);
  const agents = await pool.query(`select agent_id as id, name, type from rm_an_agents`);
  return buildAnalyticsReport(
    {
      deals,
      negotiations: negotiations.rows.map(
        (r): NegotiationFact => ({
          conversationId: Number(r.conversation_id),
          startedAt: iso(r.started_at)!,
          borrowerAgentId: num(r.borrower_agent_id),
          lenderAgentId: num(r.lender_agent_id),
          brokerAgentId: num(r.broker_agent_id),
          firstOfferAt: iso(r.first_offer_at),
          completedAt: iso(r.completed_at),
          outcome: r.outcome,
        }),
      ),
      leads: leads.rows.map(
        (r): LeadFact => ({
          agentId: Number(r.agent_id),
          createdAt: iso(r.created_at),
          qualifiedAt: iso(r.qualified_at),
          proposedAt: iso(r.proposed_at),
          agreedAt: iso(r.agreed_at),
          completedAt: iso(r.completed_at),
        }),
      ),
      agents: new Map(agents.rows.map((r) => [Number(r.id), { name: r.name, type: r.type }])),
    },
    period,
    now,
  );
}

export async function readMarket(pool: pg.Pool, region: MarketRegion, period: MarketPeriod, now = new Date()) {
  const { previousFrom } = monthWindow(MARKET_PERIOD_MONTHS[period], now);
  const deals = await dealsSince(pool, previousFrom);
  const offers = await pool.query(`select * from rm_an_offers where at >= $1 and region = $2`, [previousFrom, region]);
  const lenders = await pool.query(`select agent_id as id, name, criteria from rm_an_agents where type = 'lender'`);
  return buildMarket(
    {
      deals,
      offers: offers.rows.map(
        (r): OfferFact => ({ offerId: r.offer_id, conversationId: Number(r.conversation_id), at: iso(r.at)!, interestRate: Number(r.interest_rate), borrowerAgentId: num(r.borrower_agent_id), region: r.region }),
      ),
      lenders: new Map(lenders.rows.map((r) => [Number(r.id), { name: r.name, criteria: r.criteria }])),
    },
    region,
    period,
    now,
  );
}
