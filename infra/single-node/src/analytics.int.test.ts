import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import {
  DEAL_SIZE_BANDS,
  MARKET_MIN_FIRMS,
  MARKET_REGIONS,
  readCriteria,
  type AnalyticsReportView,
  type ConversationView,
  type DealView,
  type DomainEvent,
  type MarketView,
  type ApiError,
} from '@pf/events';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { testServerEnv } from './testing/server-env';

type Stored = { type: string; data: unknown; recorded_at: Date };
/** The data of one type of event, as the contract declares it. */
type DataOf<K extends DomainEvent['type']> = Extract<DomainEvent, { type: K }>['data'];

/**
 * After Seed Demo Data and finished negotiations, every card and chart shows figures that
 * this test recomputes from the events table itself, not from any read model.
 */
describe('analytics after Seed Demo Data, recomputed from the events table', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(testServerEnv(database.url, { AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0' }));
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await server?.close();
    await database?.drop();
  });

  it('shows on every card, chart and tab what the events say', async () => {
    const operator = await ApiClient.signIn(server.url);
    expect((await operator.post('/api/seed-demo')).status).toBe(201);
    const unfinished = async () => {
      const list = (await operator.get<ConversationView[]>('/api/conversations')).body;
      return list.length === 0 ? -1 : list.filter((c) => c.status !== 'completed').length;
    };
    await expect.poll(unfinished, { timeout: 60_000, interval: 200 }).toBe(0);
    // One agreed deal taken to completion, so revenue and Completions have something to count.
    await expect.poll(async () => (await operator.get<DealView[]>('/api/deals')).body.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const [deal] = (await operator.get<DealView[]>('/api/deals')).body;
    for (const stage of ['valuation', 'underwriting', 'completed'])
      expect((await operator.patch(`/api/deals/${deal!.id}`, { stage })).status).toBe(200);

    const report = (await operator.get<AnalyticsReportView>('/api/analytics/report?period=last30')).body;
    const events = (await pool.query<Stored>(`select type, data, recorded_at from events order by transaction_id, position`)).rows;
    // The events' data as stored (JSON), typed by the contract but not parsed by it: this test trusts nothing but the table.
    const of = <K extends DomainEvent['type']>(type: K) => events.filter((e) => e.type === type).map((e) => e.data as DataOf<K>);

    const finished = of('ConversationCompleted');
    const agreed = of('DealAgreed');
    const completedIds = new Set(
      of('DealStatusChanged')
        .filter((d) => d.status === 'completed')
        .map((d) => d.dealId),
    );
    const completed = agreed.filter((d) => completedIds.has(d.dealId));
    // The procuration fee each agreement recorded (docs/behaviour/analytics.md), never a rate of the loan assumed here.
    const fee = (d: (typeof agreed)[number]) => (d.brokerAgentId === null ? 0 : (d.procurationFee ?? 0));
    const revenue = completed.reduce((sum, d) => sum + d.arrangementFee + fee(d), 0);
    const round1 = (v: number) => Math.round(v * 10) / 10;

    expect(finished.length).toBeGreaterThanOrEqual(4);
    expect(report.headline.conversionRate.value).toBe(
      round1((finished.filter((c) => c.outcome === 'agreed').length / finished.length) * 100),
    );
    expect(report.headline.avgDealSize.value).toBe(Math.round(agreed.reduce((s, d) => s + d.loanAmount, 0) / agreed.length));
    expect(report.headline.dealsClosed.value).toBe(completed.length);
    expect(report.headline.totalRevenue.value).toBe(revenue);
    expect(report.dealVolume.reduce((n, v) => n + v.deals, 0)).toBe(agreed.length);
    expect(report.dealVolume.reduce((n, v) => n + v.value, 0)).toBe(agreed.reduce((s, d) => s + d.loanAmount, 0));
    expect(report.revenue.reduce((n, v) => n + v.revenue, 0)).toBe(revenue);
    // Commission: earned on the completed deal, due on those agreed and still in progress (none was cancelled here).
    expect(report.commission.earned).toBe(completed.reduce((sum, d) => sum + fee(d), 0));
    expect(report.commission.due).toBe(agreed.filter((d) => !completedIds.has(d.dealId)).reduce((sum, d) => sum + fee(d), 0));
    expect(report.commission.months.reduce((sum, m) => sum + m.earned + m.due, 0)).toBe(report.commission.earned + report.commission.due);
    expect(report.loanTypes.reduce((n, t) => n + t.deals, 0)).toBe(agreed.length);
    expect(report.dealSizes.map((b) => b.deals)).toEqual(
      DEAL_SIZE_BANDS.map((b) => agreed.filter((d) => d.loanAmount >= b.min && d.loanAmount < b.max).length),
    );

    // The funnel: the borrower agents created, and how far each came.
    const borrowers = of('AgentCreated')
      .filter((a) => a.type === 'borrower')
      .map((a) => a.agentId);
    const matched = new Set(of('MatchFound').map((m) => m.borrowerAgentId));
    const conversationBorrower = new Map<number, number | undefined>(
      of('ConversationStarted').map((c) => [c.conversationId, c.participants.find((p) => p.type === 'borrower')?.agentId]),
    );
    const offered = new Set(of('OfferMade').map((o) => conversationBorrower.get(o.conversationId)));
    const agreedBorrowers = new Set(agreed.map((d) => d.borrowerAgentId));
    const completedBorrowers = new Set(completed.map((d) => d.borrowerAgentId));
    expect(report.funnel.map((f) => f.count)).toEqual([
      borrowers.length,
      borrowers.filter((id) => matched.has(id)).length,
      borrowers.filter((id) => offered.has(id)).length,
      borrowers.filter((id) => agreedBorrowers.has(id)).length,
      borrowers.filter((id) => completedBorrowers.has(id)).length,
    ]);
    expect(report.funnel[4]!.count).toBe(1);

    // The leaderboard: each agent's finished negotiations and agreed deals.
    for (const row of report.agents) {
      const took = (c: { conversationId: number }) =>
        of('ConversationStarted')
          .find((s) => s.conversationId === c.conversationId)
          ?.participants.some((p: { agentId: number }) => p.agentId === row.agentId);
      expect(row.negotiations).toBe(finished.filter(took).length);
      expect(row.deals).toBe(agreed.filter((d) => [d.borrowerAgentId, d.lenderAgentId, d.brokerAgentId].includes(row.agentId)).length);
    }
    // The deal's own stages: each measured once, for the completed deal.
    expect(report.stageTimes.filter((s) => ['Application', 'Valuation', 'Underwriting'].includes(s.from)).map((s) => s.deals)).toEqual([
      1, 1, 1,
    ]);

    // Market: figures across firms need at least MARKET_MIN_DEALS deals from MARKET_MIN_FIRMS firms
    // (docs/decisions/firms-and-visibility.md). This demo is one firm's, so every region says there is not enough
    // data, whatever its own deals (the demo's borrowers name Leeds, Manchester, Bristol), rather than showing them.
    const borrowerRegion = new Map(of('AgentCreated').map((a) => [a.agentId, readCriteria(a.criteria).regions?.[0] ?? null]));
    expect(MARKET_MIN_FIRMS).toBeGreaterThan(1);
    for (const region of MARKET_REGIONS) {
      const here = agreed.filter((d) => borrowerRegion.get(d.borrowerAgentId) === region);
      const market = (await operator.get<MarketView>(`/api/market?region=${region}&period=last12`)).body;
      expect(market, `${region}: ${here.length} of the firm's own deals`).toMatchObject({ deals: null, enoughData: false });
      expect(market.headline).toMatchObject({ marketVolume: null, mortgageApprovals: null, avgInterestRate: null, avgPropertyPrice: null });
      expect(market.regions.find((r) => r.region === region)!.count).toBeNull();
    }
    expect((await operator.get<ApiError>('/api/market?region=paris')).body.message).toBe(
      'region: region must be one of london, manchester, birmingham, bristol, leeds',
    );
    expect((await operator.get('/api/analytics/report?period=last5')).status).toBe(400);
  });
});
