import { dealUuid } from '@pf/events/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { ANALYTICS_PERIOD_DAYS, DEAL_SIZE_BANDS, readStoredEvent, type AnalyticsPeriod, type DomainEvent, type EventOf } from '@pf/events';
import { migrate, type RecordedEvent } from '@pf/infra';
import { projectReadModels } from '..';
import { ANALYTICS_FACT_TABLES } from './consumer';
import { projectAnalytics } from './projection';
import { analyticsMigrations } from './schema';
import { readModelDatabase, recorded } from '../testing';
import { readAnalyticsReport, readMarket } from './queries';

const NOW = new Date('2026-03-31T12:00:00Z');
const owner = (name: string) => `user-${name}`;
type Timed = { at: string; event: DomainEvent };

const agent = (
  agentId: number,
  type: 'borrower' | 'lender' | 'broker',
  who: string,
  criteria: Record<string, string> | null = null,
): DomainEvent => ({
  type: 'AgentCreated',
  // Criteria beyond the original six (region, propertyType: docs/behaviour/agents.md); the read side reads them as text.
  data: { agentId, ownerId: owner(who), name: `${type} ${agentId}`, type, description: '', criteria: criteria },
});
const participant = (agentId: number, type: 'borrower' | 'lender' | 'broker', who: string) => ({
  agentId,
  ownerId: owner(who),
  name: `${type} ${agentId}`,
  type,
});
const terms = (interestRate: number, loanAmount = 250_000) => ({ interestRate, termYears: 25, loanAmount, arrangementFee: 999 });

/** One negotiation from match to its end, at the given day (minutes apart). */
function negotiation(n: {
  id: number;
  day: string;
  borrower: number;
  lender: number;
  broker?: number;
  rates: number[];
  deal?: { loan: number; value: number; rate: number; fee: number; procurationFee?: number };
}): Timed[] {
  const at = (minute: number) => `${n.day}T13:0${minute}:00Z`;
  const parties = [
    participant(n.borrower, 'borrower', 'x'),
    participant(n.lender, 'lender', 'y'),
    ...(n.broker ? [participant(n.broker, 'broker', 'z')] : []),
  ];
  const events: Timed[] = [
    {
      at: at(0),
      event: {
        type: 'MatchFound',
        data: {
          matchId: `m${n.id}`,
          borrowerAgentId: n.borrower,
          lenderAgentId: n.lender,
          brokerAgentId: n.broker ?? null,
          score: 80,
          explanation: [],
        },
      },
    },
    {
      at: at(1),
      event: {
        type: 'ConversationStarted',
        data: { conversationId: n.id, title: `Negotiation ${n.id}`, participants: parties, matchId: `m${n.id}` },
      },
    },
    ...n.rates.map((rate, index): Timed => ({
      at: at(2 + index),
      event: {
        type: 'OfferMade',
        data: {
          conversationId: n.id,
          offerId: `o${n.id}-${index}`,
          round: index,
          fromAgentId: index % 2 ? n.borrower : n.lender,
          toAgentId: index % 2 ? n.lender : n.borrower,
          terms: terms(rate),
        },
      },
    })),
  ];
  if (n.deal) {
    const d = n.deal;
    events.push({
      at: at(5),
      event: {
        type: 'DealAgreed',
        data: {
          dealId: dealUuid(`d${n.id}`),
          conversationId: n.id,
          borrowerAgentId: n.borrower,
          lenderAgentId: n.lender,
          brokerAgentId: n.broker ?? null,
          propertyValue: d.value,
          loanAmount: d.loan,
          ltv: (d.loan / d.value) * 100,
          interestRate: d.rate,
          termYears: 25,
          arrangementFee: d.fee,
          ...(d.procurationFee !== undefined ? { procurationFee: d.procurationFee } : {}),
        },
      },
    });
  }
  events.push({
    at: at(6),
    event: {
      type: 'ConversationCompleted',
      data: { conversationId: n.id, outcome: n.deal ? 'agreed' : 'no_agreement', reason: n.deal ? 'deal' : 'deadline' },
    },
  });
  return events;
}

const HISTORY: Timed[] = [
  { at: '2026-02-01T09:00:00Z', event: agent(2, 'borrower', 'carol', { region: 'Leeds' }) },
  {
    at: '2026-02-01T09:01:00Z',
    event: agent(4, 'lender', 'bob', { interestRateMin: '3%', interestRateMax: '6%', propertyValueMin: '£100k', propertyValueMax: '£2m' }),
  },
  {
    at: '2026-02-01T09:02:00Z',
    event: agent(5, 'lender', 'dave', {
      interestRateMin: '4%',
      interestRateMax: '4.5%',
      propertyValueMin: '£200,000',
      propertyValueMax: '£300,000',
    }),
  },
  { at: '2026-02-01T09:03:00Z', event: agent(6, 'broker', 'erin') },
  ...negotiation({
    id: 14,
    day: '2026-02-20',
    borrower: 2,
    lender: 4,
    rates: [4.2, 4.0],
    deal: { loan: 200_000, value: 260_000, rate: 4.0, fee: 500 },
  }),
  { at: '2026-03-10T09:00:00Z', event: agent(7, 'borrower', 'carol', { region: 'Leeds', propertyType: 'buy-to-let' }) },
  ...negotiation({
    id: 12,
    day: '2026-03-12',
    borrower: 7,
    lender: 5,
    rates: [4.4],
    deal: { loan: 600_000, value: 800_000, rate: 4.4, fee: 1500 },
  }),
  { at: '2026-03-28T09:00:00Z', event: agent(1, 'borrower', 'alice', { region: 'London' }) },
  ...negotiation({
    id: 11,
    day: '2026-03-28',
    borrower: 1,
    lender: 4,
    broker: 6,
    rates: [4.5, 4.2, 4.3],
    // The lender's procuration fee to broker 6, as the agreement records it (0.35% of the loan: docs/behaviour/products.md).
    deal: { loan: 300_000, value: 400_000, rate: 4.3, fee: 999, procurationFee: 1_050 },
  }),
  { at: '2026-03-30T09:00:00Z', event: agent(3, 'borrower', 'alice') },
  ...negotiation({ id: 13, day: '2026-03-30', borrower: 3, lender: 5, rates: [4.6] }),
];

function asRecorded(timed: readonly Timed[]): RecordedEvent[] {
  return recorded(
    timed.map((t) => t.event),
    (index) => new Date(timed[index]!.at),
  );
}

/**
 * The figures recomputed straight from the events, without the read model: what the screen must show.
 * (No deal is completed on this branch's events, so revenue and deals closed are 0 in every period.)
 */
function expected(period: AnalyticsPeriod) {
  const days = ANALYTICS_PERIOD_DAYS[period];
  const from = Date.UTC(2026, 2, 31) - (days - 1) * 86_400_000;
  const previousFrom = from - days * 86_400_000;
  const within = (t: Timed, start: number, end: number) => Date.parse(t.at) >= start && Date.parse(t.at) < end;
  const of = <T extends DomainEvent['type']>(type: T, start: number, end: number): { at: string; data: EventOf<T>['data'] }[] =>
    HISTORY.filter((t) => t.event.type === type && within(t, start, end)).map((t) => ({
      at: t.at,
      data: t.event.data as unknown as EventOf<T>['data'],
    }));
  const end = NOW.getTime() + 1;
  const deals = of('DealAgreed', from, end);
  const previousDeals = of('DealAgreed', previousFrom, from);
  const finished = of('ConversationCompleted', from, end);
  const previousFinished = of('ConversationCompleted', previousFrom, from);
  const rate = (f: typeof finished) =>
    f.length ? Math.round((f.filter((e) => e.data.outcome === 'agreed').length / f.length) * 1000) / 10 : null;
  const avg = (d: typeof deals) => (d.length ? Math.round(d.reduce((s, e) => s + e.data.loanAmount, 0) / d.length) : null);
  const leads = of('AgentCreated', from, end)
    .filter((e) => e.data.type === 'borrower')
    .map((e) => e.data.agentId);
  const firstFor = (agentId: number, test: (e: DomainEvent) => boolean) =>
    HISTORY.some(
      (t) =>
        (test(t.event) && JSON.stringify(t.event.data).includes(`"borrowerAgentId":${agentId}`)) ||
        (test(t.event) && t.event.type === 'OfferMade' && [t.event.data.fromAgentId, t.event.data.toAgentId].includes(agentId)),
    );
  const qualified = leads.filter((id) => firstFor(id, (e) => e.type === 'MatchFound')).length;
  const proposed = leads.filter((id) => firstFor(id, (e) => e.type === 'OfferMade')).length;
  const agreed = leads.filter((id) => firstFor(id, (e) => e.type === 'DealAgreed')).length;
  return {
    deals,
    conversionRate: rate(finished),
    previousConversionRate: rate(previousFinished),
    avgDealSize: avg(deals),
    previousAvgDealSize: avg(previousDeals),
    funnel: [leads.length, qualified, proposed, agreed, 0],
    bands: DEAL_SIZE_BANDS.map((b) => deals.filter((d) => d.data.loanAmount >= b.min && d.data.loanAmount < b.max).length),
  };
}

/** The projector's read models (rm_agents' names are not used by analytics, but a real batch goes there too) and the analytics fold. */
async function projectBoth(client: pg.PoolClient, batch: RecordedEvent[]): Promise<void> {
  await projectReadModels(client, batch);
  await projectAnalytics(client, batch);
}

describe('analytics facts', () => {
  const projected = readModelDatabase();
  const db = {
    get pool() {
      return projected.pool;
    },
    reset: async () => {
      await projected.reset();
      await projected.pool.query(`truncate ${ANALYTICS_FACT_TABLES.join(', ')}`);
    },
  };
  beforeAll(async () => {
    await migrate(projected.pool, analyticsMigrations);
  });

  for (const batching of ['one batch', 'one event per batch'] as const) {
    it(`gives every card and series the figures recomputed from the events (${batching}), and other figures for another period`, async () => {
      await db.reset();
      const events = asRecorded(HISTORY);
      const client = await db.pool.connect();
      try {
        if (batching === 'one batch') await projectBoth(client, events);
        else for (const event of events) await projectBoth(client, [event]);
      } finally {
        client.release();
      }

      for (const period of ['last7', 'last30'] as const) {
        const report = await readAnalyticsReport(db.pool, period, null, NOW);
        const want = expected(period);
        expect(report.headline.conversionRate.value).toBe(want.conversionRate);
        expect(report.headline.conversionRate.previous).toBe(want.previousConversionRate);
        expect(report.headline.avgDealSize.value).toBe(want.avgDealSize);
        expect(report.headline.avgDealSize.previous).toBe(want.previousAvgDealSize);
        expect(report.headline.dealsClosed.value).toBe(0);
        expect(report.headline.totalRevenue.value).toBe(0);
        expect(report.funnel.map((f) => f.count)).toEqual(want.funnel);
        expect(report.dealSizes.map((d) => d.deals)).toEqual(want.bands);
        // Deal volume: each agreed deal in the bucket of its day, nothing elsewhere.
        expect(report.dealVolume).toHaveLength(ANALYTICS_PERIOD_DAYS[period]);
        const perDay = new Map<string, number>();
        for (const d of want.deals) perDay.set(d.at.slice(0, 10), (perDay.get(d.at.slice(0, 10)) ?? 0) + d.data.loanAmount);
        expect(report.dealVolume.filter((v) => v.deals > 0).map((v) => [v.start.slice(0, 10), v.value])).toEqual([...perDay].sort());
        expect(report.revenue.every((r) => r.revenue === 0)).toBe(true);
        expect(report.loanTypes.reduce((n, t) => n + t.deals, 0)).toBe(want.deals.length);
      }

      // The literal figures, so a wrong recomputation above cannot hide a wrong report.
      const week = await readAnalyticsReport(db.pool, 'last7', null, NOW);
      const month = await readAnalyticsReport(db.pool, 'last30', null, NOW);
      expect(week.funnel.map((f) => [f.stage, f.count, f.percentOfFirst, f.percentOfPrevious])).toEqual([
        ['Leads', 2, 100, null],
        ['Qualified', 2, 100, 100],
        ['Proposals', 2, 100, 100],
        ['Negotiations', 1, 50, 50],
        ['Completions', 0, 0, 0],
      ]);
      expect(month.funnel.map((f) => f.count)).toEqual([3, 3, 3, 2, 0]);
      expect(week.headline.avgDealSize).toEqual({ value: 300_000, previous: null, changePercent: null });
      expect(month.headline.avgDealSize).toEqual({ value: 450_000, previous: 200_000, changePercent: 125 });
      expect(month.headline.conversionRate).toEqual({ value: 66.7, previous: 100, changePercent: -33.3 });
      expect(month.loanTypes.filter((t) => t.deals > 0)).toEqual([
        { name: 'Buy-to-Let', deals: 1, share: 50 },
        { name: 'Residential', deals: 1, share: 50 },
      ]);
      expect(month.agents.find((a) => a.agentId === 5)).toMatchObject({ deals: 1, negotiations: 2, conversion: 50, revenue: 0 });
      expect(month.stageTimes.slice(0, 2).map((s) => [s.from, s.to, s.deals])).toEqual([
        ['Match', 'First offer', 2],
        ['First offer', 'Terms agreed', 2],
      ]);
      // Negotiation 11: conversation at 13:01, first offer 13:02, deal 13:05; negotiation 12: 13:01, 13:02, 13:05.
      expect(month.stageTimes[0]!.averageDays).toBe(Math.round((60_000 / 86_400_000) * 100) / 100);
    });
  }

  it('follows deals to completion: revenue, deals closed, stage times and Completions', async () => {
    await db.reset();
    const party = (agentId: number) => ({ agentId, ownerId: owner('x'), name: `agent ${agentId}`, type: 'borrower' });
    // The deal events, read as the store's would be: upgraded and validated by the contract's reader.
    const lifecycle = (at: string, type: string, data: Record<string, unknown>): Timed => ({
      at,
      event: readStoredEvent({ type, data }),
    });
    const opened = {
      agreedInConversationId: 11,
      source: 'negotiation',
      borrower: party(1),
      lender: party(4),
      broker: party(6),
      propertyAddress: '',
      propertyValue: 400_000,
      loanAmount: 300_000,
      ltv: 75,
      interestRate: 4.3,
      termYears: 25,
      arrangementFee: 999,
      targetCompletion: null,
    };
    const events: Timed[] = [
      ...HISTORY,
      lifecycle('2026-03-28T14:00:00Z', 'DealOpened', { dealId: dealUuid('d11'), ...opened }),
      lifecycle('2026-03-29T14:00:00Z', 'DealStageChanged', { dealId: dealUuid('d11'), stage: 'valuation', from: 'application' }),
      lifecycle('2026-03-30T02:00:00Z', 'DealStageChanged', { dealId: dealUuid('d11'), stage: 'underwriting', from: 'valuation' }),
      lifecycle('2026-03-31T02:00:00Z', 'DealStageChanged', { dealId: dealUuid('d11'), stage: 'completed', from: 'underwriting' }),
      lifecycle('2026-03-31T02:00:00Z', 'DealStatusChanged', { dealId: dealUuid('d11'), status: 'completed', from: 'active' }),
      // A deal entered by hand (New Deal), later cancelled: agreed in the period, never revenue.
      lifecycle('2026-03-29T10:00:00Z', 'DealOpened', {
        ...opened,
        dealId: dealUuid('manual'),
        source: 'manual',
        agreedInConversationId: null,
        borrower: party(3),
        lender: party(5),
        broker: null,
        loanAmount: 150_000,
        propertyValue: 200_000,
        arrangementFee: 700,
      }),
      lifecycle('2026-03-30T10:00:00Z', 'DealStatusChanged', { dealId: dealUuid('manual'), status: 'cancelled', from: 'active' }),
    ];
    const client = await db.pool.connect();
    try {
      for (const event of asRecorded(events)) await projectBoth(client, [event]);
    } finally {
      client.release();
    }
    const week = await readAnalyticsReport(db.pool, 'last7', null, NOW);
    // The arrangement fee and the procuration fee the agreement recorded (docs/behaviour/analytics.md).
    const revenue = 999 + 1_050;
    expect(week.headline.totalRevenue.value).toBe(revenue);
    expect(week.headline.dealsClosed.value).toBe(1);
    expect(week.headline.avgDealSize.value).toBe((300_000 + 150_000) / 2);
    expect(week.revenue.filter((r) => r.revenue > 0)).toEqual([{ start: '2026-03-31T00:00:00.000Z', revenue }]);
    expect(week.funnel.map((f) => f.count)).toEqual([2, 2, 2, 1, 1]);
    expect(week.agents.find((a) => a.agentId === 6)).toMatchObject({ revenue, deals: 1 });
    expect(week.stageTimes.map((s) => [s.from, s.to, s.averageDays, s.deals]).slice(2)).toEqual([
      [
        'Terms agreed',
        'Completion',
        Math.round(((Date.parse('2026-03-31T02:00:00Z') - Date.parse('2026-03-28T13:05:00Z')) / 86_400_000) * 100) / 100,
        1,
      ],
      ['Application', 'Valuation', 1, 1],
      ['Valuation', 'Underwriting', 0.5, 1],
      ['Underwriting', 'Completed', 1, 1],
    ]);
    // The period before saw no completion: the change is "new", not a percentage of nothing.
    expect(week.headline.totalRevenue).toMatchObject({ previous: 0, changePercent: null });
  });

  it('counts a completed deal’s arrangement fee and broker commission as revenue (once deals complete)', async () => {
    const { revenueOf } = await import('./report');
    const base = {
      dealId: dealUuid('d'),
      conversationId: 1,
      agreedAt: '',
      borrowerAgentId: 1,
      lenderAgentId: 2,
      region: null,
      loanType: 'Residential',
      propertyValue: 400_000,
      loanAmount: 300_000,
      interestRate: 4,
      arrangementFee: 999,
      status: 'completed',
      stage: 'completed',
      stageTimes: {},
    };
    const completed = '2026-03-30T00:00:00Z';
    expect(revenueOf({ ...base, brokerAgentId: 6, procurationFee: 1_050, completedAt: completed })).toBe(999 + 1_050);
    // Before products a deal recorded no procuration fee: none is made up for it.
    expect(revenueOf({ ...base, brokerAgentId: 6, procurationFee: null, completedAt: completed })).toBe(999);
    expect(revenueOf({ ...base, brokerAgentId: null, procurationFee: null, completedAt: completed })).toBe(999);
    expect(revenueOf({ ...base, brokerAgentId: 6, procurationFee: 1_050, completedAt: null })).toBe(0);
  });

  it('shows the broker firm its commission by month: earned on completion, due while a deal is in progress, none when cancelled', async () => {
    await db.reset();
    const stage = (at: string, dealId: string, from: string, to: string): Timed => ({
      at,
      event: { type: 'DealStageChanged', data: { dealId: dealUuid(dealId), stage: to as 'valuation', from: from as 'application' } },
    });
    const status = (at: string, dealId: string, from: string, to: string): Timed => ({
      at,
      event: { type: 'DealStatusChanged', data: { dealId: dealUuid(dealId), status: to as 'completed', from: from as 'active' } },
    });
    // Broker 6 (erin's firm) introduces three deals; the lenders' procuration fees as each agreement records them.
    const introduced = (id: number, day: string, borrower: number, procurationFee: number) =>
      negotiation({
        id,
        day,
        borrower,
        lender: 4,
        broker: 6,
        rates: [4.3],
        deal: { loan: 300_000, value: 400_000, rate: 4.3, fee: 999, procurationFee },
      });
    const events: Timed[] = [
      { at: '2026-01-01T09:00:00Z', event: agent(4, 'lender', 'bob') },
      { at: '2026-01-01T09:01:00Z', event: agent(6, 'broker', 'erin') },
      ...[1, 2, 3, 7].map((id): Timed => ({ at: '2026-01-01T09:02:00Z', event: agent(id, 'borrower', 'alice') })),
      // Agreed in February, completed in March: earned in March.
      ...introduced(21, '2026-02-20', 1, 1_050),
      stage('2026-03-01T10:00:00Z', 'd21', 'application', 'valuation'),
      stage('2026-03-02T10:00:00Z', 'd21', 'valuation', 'underwriting'),
      stage('2026-03-05T10:00:00Z', 'd21', 'underwriting', 'completed'),
      status('2026-03-05T10:00:00Z', 'd21', 'active', 'completed'),
      // Agreed in March, still at underwriting: due, in March.
      ...introduced(22, '2026-03-12', 2, 1_200),
      stage('2026-03-20T10:00:00Z', 'd22', 'application', 'underwriting'),
      // Agreed in January and cancelled: no fee, neither earned nor due.
      ...introduced(23, '2026-01-15', 3, 900),
      status('2026-01-20T10:00:00Z', 'd23', 'active', 'cancelled'),
      // A deal with no broker pays no procuration fee.
      ...negotiation({
        id: 24,
        day: '2026-03-14',
        borrower: 7,
        lender: 4,
        rates: [4.1],
        deal: { loan: 200_000, value: 300_000, rate: 4.1, fee: 999 },
      }),
    ];
    const client = await db.pool.connect();
    try {
      for (const event of asRecorded(events)) await projectBoth(client, [event]);
    } finally {
      client.release();
    }
    const broker = await readAnalyticsReport(db.pool, 'last90', owner('erin'), NOW);
    expect(broker.commission).toEqual({
      earned: 1_050,
      due: 1_200,
      months: [
        { month: '2026-01', earned: 0, completedDeals: 0, due: 0, dealsInProgress: 0 },
        { month: '2026-02', earned: 0, completedDeals: 0, due: 0, dealsInProgress: 0 },
        { month: '2026-03', earned: 1_050, completedDeals: 1, due: 1_200, dealsInProgress: 1 },
      ],
    });
    // The lender's firm pays the fees; it earns no commission of its own.
    const lender = await readAnalyticsReport(db.pool, 'last90', owner('bob'), NOW);
    expect(lender.commission).toMatchObject({ earned: 0, due: 0 });
    // Last 7 days (from 25 March): the completion on 5 March and the agreement on 12 March are before it.
    const week = await readAnalyticsReport(db.pool, 'last7', owner('erin'), NOW);
    expect(week.commission).toEqual({
      earned: 0,
      due: 0,
      months: [{ month: '2026-03', earned: 0, completedDeals: 0, due: 0, dealsInProgress: 0 }],
    });
  });

  it('builds the market of a region from its agreed deals and offers, says when there is too little data, and states the figures behind each insight', async () => {
    await db.reset();
    const londonDeals: Timed[] = [];
    const rateOf = (month: number) => (month === 2 ? 4.8 : 4.3);
    let id = 100;
    // Borrowers of three firms, five deals a month: enough deals from enough firms to back each figure.
    const firms = ['alice', 'carol', 'dave'];
    for (const [month, count] of [
      [2, 5],
      [3, 5],
    ] as const) {
      for (let i = 0; i < count; i += 1) {
        id += 1;
        londonDeals.push({ at: `2026-0${month}-1${i}T10:00:00Z`, event: agent(id, 'borrower', firms[i % 3]!, { region: 'London' }) });
        londonDeals.push({
          at: `2026-0${month}-1${i}T11:00:00Z`,
          event: {
            type: 'DealAgreed',
            data: {
              dealId: dealUuid(`london-${id}`),
              conversationId: id,
              borrowerAgentId: id,
              lenderAgentId: 4,
              brokerAgentId: null,
              propertyValue: 500_000 + i * 10_000,
              loanAmount: 400_000,
              ltv: 80,
              interestRate: rateOf(month),
              termYears: 25,
              arrangementFee: 999,
            },
          },
        });
      }
    }
    const client = await db.pool.connect();
    try {
      await projectBoth(client, asRecorded([...HISTORY, ...londonDeals]));
    } finally {
      client.release();
    }

    // Two Leeds deals: Not enough data, and none of their figures shown.
    const leeds = await readMarket(db.pool, 'leeds', 'last12', null, NOW);
    expect(leeds).toMatchObject({ deals: null, enoughData: false, lenders: [] });
    expect(leeds.headline).toEqual({ avgInterestRate: null, avgPropertyPrice: null, marketVolume: null, mortgageApprovals: null });
    expect(leeds.regions.find((r) => r.region === 'leeds')).toEqual({ region: 'leeds', avgPrice: null, change: null, count: null });

    const london = await readMarket(db.pool, 'london', 'last3', null, NOW);
    expect(london).toMatchObject({ deals: 11, enoughData: true });
    expect(london.headline.mortgageApprovals).toBe(11);
    expect(london.headline.marketVolume).toBe(10 * 400_000 + 300_000);
    expect(london.rates.map((r) => [r.month, r.deals, r.agreedRate])).toEqual([
      ['2026-01', 0, null],
      ['2026-02', 5, 4.8],
      ['2026-03', 6, 4.3],
    ]);
    // Offers of negotiation 11 (one London borrower, one firm): 4.5, 4.2, 4.3 in March, too few to show.
    expect(london.rates[2]).toMatchObject({ offers: 0, offeredRate: null });
    expect(london.lenders).toEqual([{ agentId: 4, name: 'lender 4', deals: 11, marketShare: 100, avgRate: 4.53, criteria: 'Flexible' }]);
    expect(london.regions.find((r) => r.region === 'london')).toMatchObject({ count: 11, change: null });
    expect(london.insights).toEqual([
      {
        title: 'Agreed rates fell in London',
        content: 'The average agreed rate moved from 4.80% in Feb 2026 (5 deals) to 4.30% in Mar 2026 (6 deals), 0.50 percentage points.',
        type: 'positive',
        impact: 'High',
      },
      {
        title: 'Volume rose in London',
        content: '11 deals agreed in London this period against 0 in the period before.',
        type: 'positive',
        impact: 'High',
      },
    ]);
    const lastYear = await readMarket(db.pool, 'london', 'last12', null, NOW);
    expect(lastYear.deals).toBe(11);
    // A firm is shown only its own lenders: alice's firm has none, lender 4's firm sees it.
    expect((await readMarket(db.pool, 'london', 'last3', owner('alice'), NOW)).lenders).toEqual([]);
    const lenderFirm = (await db.pool.query<{ firm_id: string }>('select firm_id from rm_an_agents where agent_id = 4')).rows[0]!.firm_id;
    expect((await readMarket(db.pool, 'london', 'last3', lenderFirm, NOW)).lenders.map((l) => l.name)).toEqual(['lender 4']);
  });

  it("lets a deleted account's agents go by name and criteria (AccountDeleted), keeping every figure", async () => {
    await db.reset();
    const client = await db.pool.connect();
    const deleted: Timed = { at: '2026-03-31T10:00:00Z', event: { type: 'AccountDeleted', data: { userId: owner('bob') } } };
    try {
      await projectBoth(client, asRecorded(HISTORY));
      const report = await readAnalyticsReport(db.pool, 'last90', null, NOW);
      const market = await readMarket(db.pool, 'london', 'last3', null, NOW);
      // Bob's lender 4 (the leaderboard names it) and its criteria history.
      expect(report.agents.find((a) => a.agentId === 4)?.name).toBe('lender 4');
      expect((await db.pool.query<{ n: number }>('select count(*)::int as n from rm_an_criteria where agent_id = 4')).rows[0]!.n).toBe(1);

      await projectBoth(client, asRecorded([deleted]));
      const after = await readAnalyticsReport(db.pool, 'last90', null, NOW);
      const rename = (name: string, agentId: number) => (agentId === 4 ? 'Deleted agent' : name);
      expect(after).toEqual({ ...report, agents: report.agents.map((a) => ({ ...a, name: rename(a.name, a.agentId) })) });
      const marketAfter = await readMarket(db.pool, 'london', 'last3', null, NOW);
      // Its criteria are gone, so its criteria label is no longer derived from them; every figure stays.
      expect(marketAfter).toEqual({
        ...market,
        lenders: market.lenders.map((l) => ({ ...l, name: 'Deleted agent', criteria: marketAfter.lenders[0]!.criteria })),
      });
      expect((await db.pool.query('select name, criteria from rm_an_agents where agent_id = 4')).rows).toEqual([
        { name: 'Deleted agent', criteria: null },
      ]);
      expect((await db.pool.query<{ n: number }>('select count(*)::int as n from rm_an_criteria where agent_id = 4')).rows[0]!.n).toBe(0);
      // Others keep theirs; the deletion seen again (a redelivery) changes nothing.
      expect((await db.pool.query<{ name: string }>('select name from rm_an_agents where agent_id = 5')).rows[0]!.name).toBe('lender 5');
      await projectBoth(client, asRecorded([deleted]));
      expect(await readAnalyticsReport(db.pool, 'last90', null, NOW)).toEqual(after);
    } finally {
      client.release();
    }
  });
});
