import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import {
  ANALYTICS_PERIOD_DAYS,
  compactPounds,
  DEAL_SIZE_BANDS,
  pounds,
  readCriteria,
  type AnalyticsPeriod,
  type ConversationView,
  type CurrentUserView,
  type DealView,
  type DomainEvent,
} from '@pf/events';
import { pastStreams, writePastDeal, type PastDeal } from './past-history';
import { startE2eServer, type E2eServer } from './server';

/**
 * After Seed Demo Data and finished negotiations, every card and tab of Analytics & Reports and Market Intelligence
 * shows the figures this test recomputes from the events table itself (never from a read model or the API), and
 * changing the period changes them. Analytics counts only the signed-in person's firm; Market combines firms only
 * where 5 deals of 3 firms back a figure (docs/decisions/firms-and-visibility.md). Negotiations 12 and 20 days old
 * of this firm (past-history.ts) give the last 30 days something the last 7 do not have; three older London deals of
 * two other firms make London's market figure one that several firms back.
 */
let server: E2eServer;
test.beforeAll(async () => {
  server = await startE2eServer({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0' });
});
test.afterAll(async () => {
  await server?.stop();
});

type Stored = { type: string; data: unknown; at: Date };
/** The data of one type of event, as the contract declares it. */
type DataOf<K extends DomainEvent['type']> = Extract<DomainEvent, { type: K }>['data'];
type Agreed = DataOf<'DealAgreed'>;
/** How an event of any type names the agents, conversation or deal it concerns: each field is on some types only. */
interface Refs {
  agentId?: number | null;
  participants?: { agentId: number }[];
  borrowerAgentId?: number;
  lenderAgentId?: number;
  brokerAgentId?: number | null;
  conversationId?: number;
  dealId?: string;
}
const DAY = 86_400_000;
const round1 = (v: number) => Math.round(v * 10) / 10;
const round2 = (v: number) => Math.round(v * 100) / 100;
// The console's one money style (@pf/events, unit-tested there): "£236,000" in full, "£868k" / "£1.4m" compact.
const pct = (part: number, whole: number) => (whole === 0 ? null : round1((part / whole) * 100));
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

// The events' data as stored (JSON), typed by the contract but not parsed by it: this test trusts nothing but the table.
const dataOf = <K extends DomainEvent['type']>(events: Stored[], type: K) =>
  events.filter((e) => e.type === type).map((e) => e.data as DataOf<K>);

async function readEvents(): Promise<Stored[]> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return (await client.query<Stored>(`select type, data, recorded_at as at from events order by transaction_id, position`)).rows;
  } finally {
    await client.end();
  }
}

/** What Analytics & Reports must show for a period, recomputed from the events alone. */
function expected(allEvents: Stored[], period: AnalyticsPeriod, firmId: string) {
  // The firm's own agents (a firm of one: its person's id), and the events that concern them.
  const ours = new Set(
    dataOf(allEvents, 'AgentCreated')
      .filter((d) => d.ownerId === firmId)
      .map((d) => d.agentId),
  );
  const concerns = (d: Refs): boolean => {
    if (typeof d.agentId === 'number') return ours.has(d.agentId);
    if (Array.isArray(d.participants)) return d.participants.some((p) => ours.has(p.agentId));
    return [d.borrowerAgentId, d.lenderAgentId, d.brokerAgentId].some((id) => typeof id === 'number' && ours.has(id));
  };
  const conversationsOfOurs = new Set(
    dataOf(allEvents, 'ConversationStarted')
      .filter(concerns)
      .map((d) => d.conversationId),
  );
  // Asked of a conversation's events too, which may name no deal.
  const dealsOfOurs: ReadonlySet<string | undefined> = new Set(
    dataOf(allEvents, 'DealAgreed')
      .filter(concerns)
      .map((d) => d.dealId),
  );
  const events = allEvents.filter((e) => {
    const d = e.data as Refs;
    return d.conversationId !== undefined && !('agentId' in d)
      ? conversationsOfOurs.has(d.conversationId) || dealsOfOurs.has(d.dealId)
      : d.dealId !== undefined && !('borrowerAgentId' in d)
        ? dealsOfOurs.has(d.dealId)
        : concerns(d);
  });
  const now = new Date();
  const from = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (ANALYTICS_PERIOD_DAYS[period] - 1) * DAY;
  const inPeriod = (e: Stored) => e.at.getTime() >= from;
  const of = <K extends DomainEvent['type']>(type: K, only = inPeriod) => dataOf(events.filter(only), type);
  const agreed = of('DealAgreed');
  const allAgreed = new Map(of('DealAgreed', () => true).map((d) => [d.dealId, d]));
  const completed = of('DealStatusChanged')
    .filter((d) => d.status === 'completed')
    .map((d) => allAgreed.get(d.dealId))
    .filter(Boolean) as Agreed[];
  // The procuration fee each agreement recorded (docs/behaviour/analytics.md).
  const revenueOf = (d: Agreed) => d.arrangementFee + (d.brokerAgentId === null ? 0 : (d.procurationFee ?? 0));
  const finished = of('ConversationCompleted');
  const started = new Map(of('ConversationStarted', () => true).map((d) => [d.conversationId, d.participants]));
  const borrowerOf = (conversationId: number) => started.get(conversationId)?.find((p) => p.type === 'borrower')?.agentId;

  const leads = of('AgentCreated')
    .filter((d) => d.type === 'borrower')
    .map((d) => d.agentId);
  const matched = new Set(of('MatchFound', () => true).map((d) => d.borrowerAgentId));
  const offered = new Set(of('OfferMade', () => true).map((d) => borrowerOf(d.conversationId)));
  const agreedBy = new Set([...allAgreed.values()].map((d) => d.borrowerAgentId));
  const completedBy = new Set(completed.map((d) => d.borrowerAgentId));
  const counts = [leads.length, ...[matched, offered, agreedBy, completedBy].map((set) => leads.filter((id) => set.has(id)).length)];

  const names = new Map<number, { name: string; type: string }>();
  for (const d of of('AgentCreated', () => true)) names.set(d.agentId, { name: d.name, type: d.type });
  for (const d of of('AgentUpdated', () => true)) names.set(d.agentId, { ...names.get(d.agentId)!, name: d.name });
  const parties = (d: Agreed) => [d.borrowerAgentId, d.lenderAgentId, d.brokerAgentId].filter((id) => id !== null);
  const agentRow = (agentId: number) => {
    const took = finished.filter((c) => started.get(c.conversationId)?.some((p) => p.agentId === agentId));
    return {
      ...names.get(agentId)!,
      deals: agreed.filter((d) => parties(d).includes(agentId)).length,
      negotiations: took.length,
      conversion: pct(took.filter((c) => c.outcome === 'agreed').length, took.length),
      revenue: completed.filter((d) => parties(d).includes(agentId)).reduce((s: number, d) => s + revenueOf(d), 0),
    };
  };
  return {
    revenue: completed.reduce((s: number, d) => s + revenueOf(d), 0),
    dealsClosed: completed.length,
    conversion: pct(finished.filter((c) => c.outcome === 'agreed').length, finished.length),
    avgDealSize: agreed.length === 0 ? null : Math.round(mean(agreed.map((d) => d.loanAmount))),
    bands: DEAL_SIZE_BANDS.map((b) => ({
      band: b.band,
      deals: agreed.filter((d) => d.loanAmount >= b.min && d.loanAmount < b.max).length,
      total: agreed.length,
    })),
    funnel: counts.map((count, i) => ({ count, ofFirst: pct(count, counts[0]!), ofPrevious: i === 0 ? null : pct(count, counts[i - 1]!) })),
    agreed,
    agentRow,
    finishedParties: finished.flatMap((c) => (started.get(c.conversationId) ?? []).map((p) => p.agentId)),
    dealAgreedEvents: agreed.length,
  };
}

const statValue = (page: Page, key: string) => page.getByTestId(key).locator('.pf-stat-value');

async function expectReport(page: Page, want: ReturnType<typeof expected>) {
  await expect(statValue(page, 'headline-totalRevenue')).toHaveText(compactPounds(want.revenue));
  await expect(statValue(page, 'headline-dealsClosed')).toHaveText(String(want.dealsClosed));
  await expect(statValue(page, 'headline-conversionRate')).toHaveText(want.conversion === null ? '–' : `${want.conversion.toFixed(1)}%`);
  await expect(statValue(page, 'headline-avgDealSize')).toHaveText(want.avgDealSize === null ? '–' : pounds(want.avgDealSize));
}

test('Analytics & Reports and Market Intelligence show what the events say, and the period changes the figures', async ({ browser }) => {
  test.setTimeout(240_000);
  const page = await (await browser.newContext({ baseURL: server.url })).newPage();
  await page.goto('/api/login');
  await expect(page.getByRole('heading', { name: 'Welcome to PropertyFinance AI' })).toBeVisible();
  const me = (await (await page.request.get('/api/auth/user')).json()) as CurrentUserView;
  // Two London deals of this firm's past: in the last 30 days, not the last 7.
  const pastDeals: PastDeal[] = [];
  const writePast = async (past: PastDeal) => {
    pastDeals.push(past);
    await writePastDeal(server.databaseUrl, past);
  };
  const london = { region: 'london', interestRate: 4.35, propertyValue: 800_000, loanAmount: 640_000, arrangementFee: 1_499 };
  await writePast({
    ...london,
    daysAgo: 12,
    borrowerAgentId: 910_001,
    lenderAgentId: 910_002,
    conversationId: 910_001,
    ownerId: me.id,
    loanAmount: 1_250_000,
    propertyValue: 1_600_000,
    interestRate: 5.15,
    arrangementFee: 1_999,
  });
  await writePast({ ...london, daysAgo: 20, borrowerAgentId: 910_003, lenderAgentId: 910_004, conversationId: 910_002, ownerId: me.id });
  // Three London deals of two other firms, older than any period of Analytics: theirs, never in this firm's report.
  await writePast({
    ...london,
    daysAgo: 40,
    borrowerAgentId: 910_005,
    lenderAgentId: 910_006,
    conversationId: 910_003,
    ownerId: 'e2e-firm-b',
    interestRate: 4.85,
  });
  await writePast({
    ...london,
    daysAgo: 45,
    borrowerAgentId: 910_007,
    lenderAgentId: 910_008,
    conversationId: 910_004,
    ownerId: 'e2e-firm-b',
    propertyValue: 700_000,
    loanAmount: 525_000,
  });
  await writePast({
    ...london,
    daysAgo: 50,
    borrowerAgentId: 910_009,
    lenderAgentId: 910_010,
    conversationId: 910_005,
    ownerId: 'e2e-firm-c',
    interestRate: 3.95,
  });
  // Written as the store writes: their hash chains verify like any other stream's.
  const { createPool, PostgresEventStore, verifyStreams } = await import('@pf/infra');
  const pool = createPool(server.databaseUrl, 2);
  const store = new PostgresEventStore(pool, server.databaseUrl);
  const verified = await verifyStreams(store, pastDeals.flatMap(pastStreams));
  await store.close();
  await pool.end();
  expect(verified.map((v) => [v.stream, v.intact])).toEqual(pastDeals.flatMap(pastStreams).map((stream) => [stream, true]));
  expect((await page.request.post('/api/seed-demo')).status()).toBe(201);
  // The past conversations are this firm's too (already completed): wait on the demo's own, opened by the seeding.
  const past = new Set(pastDeals.map((p) => p.conversationId));
  const unfinished = async () => {
    const list = (await (await page.request.get('/api/conversations')).json()) as ConversationView[];
    const live = list.filter((c) => !past.has(c.id));
    return live.length === 0 ? -1 : live.filter((c) => c.status !== 'completed').length;
  };
  await expect.poll(unfinished, { timeout: 90_000, intervals: [500] }).toBe(0);
  // Two deals the demo's agents agreed, taken to completion: revenue, Deals Closed and Completions have something to count.
  // A deal is opened from its agreement by a follower of the stream, so it may be listed a moment after its conversation ends.
  const dealsAgreedNow = async () => {
    const deals = (await (await page.request.get('/api/deals')).json()) as DealView[];
    return deals.filter((d) => d.conversationId !== null && !past.has(d.conversationId));
  };
  await expect.poll(async () => (await dealsAgreedNow()).length, { timeout: 30_000, intervals: [500] }).toBeGreaterThanOrEqual(2);
  const agreedNow = await dealsAgreedNow();
  for (const deal of agreedNow.slice(0, 2)) {
    for (const stage of ['valuation', 'underwriting', 'completed'])
      expect((await page.request.patch(`/api/deals/${deal.id}`, { data: { stage } })).status()).toBe(200);
  }
  // The platform has gone quiet (no process manager still writing) before the figures are recomputed.
  let count = -1;
  await expect
    .poll(
      async () => {
        const now = (await readEvents()).length;
        const quiet = now === count;
        count = now;
        return quiet;
      },
      { timeout: 30_000, intervals: [1_500] },
    )
    .toBe(true);
  const events = await readEvents();
  const month = expected(events, 'last30', me.id);
  const week = expected(events, 'last7', me.id);
  // The past deals are in the last 30 days only, so the two periods must differ on the screen.
  expect(month.dealAgreedEvents).toBe(week.dealAgreedEvents + 2);
  expect(month.avgDealSize).not.toBe(week.avgDealSize);
  expect(month.conversion).not.toBe(week.conversion);
  expect(month.funnel[0]!.count).toBe(week.funnel[0]!.count + 2);

  await page.goto('/analytics');
  await expectReport(page, month);
  // Firm Activity (GET /api/analytics/daily): the firm's deals agreed in the period, counted per event.
  await expect(page.getByTestId('activity-DealAgreed')).toHaveText(`Deal agreed${month.dealAgreedEvents}`);

  // Agent Performance: the busiest agent's row, by the events.
  await page.getByRole('tab', { name: 'Agent Performance' }).click();
  const busiest = [...new Set(month.agreed.flatMap((d) => [d.borrowerAgentId, d.lenderAgentId]))]
    .map((id) => ({ id, row: month.agentRow(id) }))
    .sort((a, b) => b.row.deals - a.row.deals || b.row.revenue - a.row.revenue)[0]!;
  const row = page
    .getByTestId('agent-leaderboard')
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: busiest.row.name, exact: true }) });
  await expect(row.getByRole('cell')).toHaveText([
    busiest.row.name,
    busiest.row.type.charAt(0).toUpperCase() + busiest.row.type.slice(1),
    String(busiest.row.deals),
    busiest.row.conversion === null ? '–' : `${busiest.row.conversion.toFixed(1)}% of ${busiest.row.negotiations}`,
    pounds(busiest.row.revenue),
  ]);

  // Sorted by conversion, the first row is an agent with the best conversion the events give.
  const everyone = [
    ...new Set(month.agreed.flatMap((d) => [d.borrowerAgentId, d.lenderAgentId, d.brokerAgentId]).concat(month.finishedParties)),
  ]
    .filter((id): id is number => id !== null)
    .map((id) => month.agentRow(id));
  const best = Math.max(...everyone.map((r) => r.conversion ?? -1));
  await page.getByRole('button', { name: 'Conversion', exact: true }).click();
  await expect(page.getByTestId('agent-leaderboard').getByRole('row').nth(1).getByRole('cell').nth(3)).toHaveText(
    new RegExp(`^${best.toFixed(1)}% of \\d+$`),
  );

  // Deal Analysis: every band's count and share.
  await page.getByRole('tab', { name: 'Deal Analysis' }).click();
  for (const band of month.bands) {
    await expect(page.getByTestId('deal-sizes').getByRole('listitem').filter({ hasText: band.band })).toContainText(
      `${band.deals} deals (${(pct(band.deals, band.total) ?? 0).toFixed(1)}%)`,
    );
  }

  // Conversion Funnel: counts, share of leads and of the step before.
  await page.getByRole('tab', { name: 'Conversion Funnel' }).click();
  const stages = ['Leads', 'Qualified', 'Proposals', 'Negotiations', 'Completions'];
  for (const [i, step] of month.funnel.entries()) {
    const item = page.getByTestId(`funnel-${stages[i]}`);
    await expect(item.locator('.pf-funnel-count')).toHaveText(String(step.count));
    await expect(item).toContainText(`${step.ofFirst === null ? '–' : `${step.ofFirst.toFixed(1)}%`} of leads`);
    if (step.ofPrevious !== null) await expect(item).toContainText(`${step.ofPrevious.toFixed(1)}% of previous`);
  }

  // The period: the last 7 days leave the past deals and their leads out, and the screen's numbers follow.
  await page.getByRole('combobox', { name: 'Period' }).selectOption('last7');
  await expectReport(page, week);
  await expect(page.getByTestId('funnel-Leads').locator('.pf-funnel-count')).toHaveText(String(week.funnel[0]!.count));
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(page.getByTestId('activity-DealAgreed')).toHaveText(`Deal agreed${week.dealAgreedEvents}`);

  // Market Intelligence for London over 12 months: the deals of every firm whose borrower names London.
  const regionOf = new Map(dataOf(events, 'AgentCreated').map((d) => [d.agentId, readCriteria(d.criteria).regions?.[0] ?? null]));
  const londonDeals = dataOf(events, 'DealAgreed').filter((d) => regionOf.get(d.borrowerAgentId) === 'london');
  expect(londonDeals.length).toBeGreaterThanOrEqual(5);
  await page.goto('/market');
  await expect(page.getByTestId('market-too-little')).toHaveCount(0);
  await expect(statValue(page, 'market-avgInterestRate')).toHaveText(`${round2(mean(londonDeals.map((d) => d.interestRate))).toFixed(2)}%`);
  await expect(statValue(page, 'market-avgPropertyPrice')).toHaveText(pounds(Math.round(mean(londonDeals.map((d) => d.propertyValue)))));
  await expect(statValue(page, 'market-mortgageApprovals')).toHaveText(String(londonDeals.length));
  await expect(page.getByTestId('market-insights')).toContainText(
    `${londonDeals.length} deals agreed in London this period against 0 in the period before.`,
  );
  await page.getByRole('tab', { name: 'Property Prices' }).click();
  await expect(page.getByTestId('market-regions').getByRole('row').filter({ hasText: 'London' }).getByRole('cell').last()).toHaveText(
    String(londonDeals.length),
  );
});
