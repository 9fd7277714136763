import { dealUuid } from '@pf/events/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { formatPosition, readStoredEvent, streams, type DomainEvent } from '@pf/events';
import {
  advanceAppliedThrough,
  applyOnce,
  createLogger,
  createPool,
  eventStoreMigrations,
  inTransaction,
  loadAppliedThrough,
  loadCheckpoint,
  NotCaughtUp,
  migrate,
  PostgresEventStore,
  readingTheContract,
  type EventStore,
  startAnalyticsSource,
  type NewEvent,
  type Pool,
  type RecordedEvent,
} from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import {
  ANALYTICS_FACT_TABLES,
  ANALYTICS_FACTS_CHECKPOINT,
  ANALYTICS_FACTS_CONSUMER,
  analyticsFactsHandler,
  rebuildAnalyticsFacts,
} from './consumer';
import { readMarket } from './queries';
import { analyticsReadWait } from './read-wait';
import { analyticsMigrations } from './schema';

const newEvent = (event: DomainEvent): NewEvent => ({
  id: randomUUID(),
  type: event.type,
  data: event.data,
  metadata: { actor: { kind: 'system', name: 'test' }, correlationId: 'c', causationId: null },
});
const agent = (agentId: number, type: 'borrower' | 'lender', region: string | null): DomainEvent => ({
  type: 'AgentCreated',
  data: { agentId, ownerId: 'u', name: `${type} ${agentId}`, type, description: '', criteria: region ? { region } : null },
});
const party = (agentId: number, type: 'borrower' | 'lender') => ({ agentId, ownerId: 'u', name: `${type} ${agentId}`, type });

/** A borrower in London agreeing a deal with lender 2 in conversation `id` (rate 4.1 + id/100). */
function deal(id: number): DomainEvent[] {
  const rate = 4.1 + id / 100;
  return [
    {
      type: 'ConversationStarted',
      data: { conversationId: id, title: `N ${id}`, participants: [party(100 + id, 'borrower'), party(2, 'lender')], matchId: null },
    },
    {
      type: 'OfferMade',
      data: {
        conversationId: id,
        offerId: `o${id}`,
        round: 0,
        fromAgentId: 2,
        toAgentId: 100 + id,
        terms: { interestRate: rate, termYears: 25, loanAmount: 300_000, arrangementFee: 999 },
      },
    },
    {
      type: 'DealAgreed',
      data: {
        dealId: dealUuid(`d${id}`),
        conversationId: id,
        borrowerAgentId: 100 + id,
        lenderAgentId: 2,
        brokerAgentId: null,
        propertyValue: 400_000 + id,
        loanAmount: 300_000,
        ltv: 75,
        interestRate: rate,
        termYears: 25,
        arrangementFee: 999,
      },
    },
    { type: 'ConversationCompleted', data: { conversationId: id, outcome: 'agreed', reason: 'deal' } },
  ];
}

describe('the analytics consumer folds the facts behind Analytics & Reports and Market Intelligence', () => {
  let database: TestDatabase;
  let pool: Pool;
  let store: EventStore;
  const snapshot = async () => {
    const tables: Record<string, Record<string, unknown>[]> = {};
    for (const table of ANALYTICS_FACT_TABLES)
      tables[table] = (await pool.query<Record<string, unknown>>(`select * from ${table} order by 1`)).rows;
    return tables;
  };
  const claims = async () =>
    Number(
      (
        await pool.query<{ n: string }>('select count(*) as n from analytics_processed_events where consumer = $1', [
          ANALYTICS_FACTS_CONSUMER,
        ])
      ).rows[0]!.n,
    );
  /** Empties the facts and what the consumer has applied (its claims and its watermark). */
  const forget = async () => {
    await pool.query(`truncate ${ANALYTICS_FACT_TABLES.join(', ')}`);
    await pool.query('delete from analytics_processed_events where consumer = $1', [ANALYTICS_FACTS_CONSUMER]);
    await pool.query('delete from analytics_applied_through where consumer = $1', [ANALYTICS_FACTS_CONSUMER]);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool(database.url);
    await migrate(pool, [...eventStoreMigrations, ...analyticsMigrations]);
    store = readingTheContract(new PostgresEventStore(pool, database.url));
    await store.append('agent-2', [newEvent(agent(2, 'lender', null))], 'no_stream');
    for (const id of [1, 2, 3]) {
      await store.append(streams.agent(100 + id), [newEvent(agent(100 + id, 'borrower', 'London'))], 'no_stream');
      await store.append(
        `match-m${id}`,
        [
          newEvent({
            type: 'MatchFound',
            data: { matchId: `m${id}`, borrowerAgentId: 100 + id, lenderAgentId: 2, brokerAgentId: null, score: 80, explanation: [] },
          }),
        ],
        'no_stream',
      );
      await store.append(streams.conversation(id), deal(id).map(newEvent), 'no_stream');
    }
    // Deal d1 opened, moved on and completed (its own stream); then its borrower moves to Leeds and agrees d4 there.
    const opened = {
      agreedInConversationId: 1,
      source: 'negotiation',
      borrower: party(101, 'borrower'),
      lender: party(2, 'lender'),
      broker: null,
      propertyAddress: '',
      propertyValue: 400_001,
      loanAmount: 300_000,
      ltv: 75,
      interestRate: 4.11,
      termYears: 25,
      arrangementFee: 999,
      targetCompletion: null,
    };
    const life = (type: string, data: Record<string, unknown>) => newEvent(readStoredEvent({ type, data }));
    await store.append(
      'deal-d1',
      [
        life('DealOpened', { dealId: dealUuid('d1'), ...opened }),
        life('DealStageChanged', { dealId: dealUuid('d1'), stage: 'valuation', from: 'application' }),
        life('DealStatusChanged', { dealId: dealUuid('d1'), status: 'completed', from: 'active' }),
      ],
      'no_stream',
    );
    await store.append(
      'agent-101',
      [newEvent({ type: 'AgentUpdated', data: { agentId: 101, name: 'borrower 101', description: '', criteria: { region: 'Leeds' } } })],
      0,
    );
    await store.append(
      'conversation-4',
      deal(4).map((e) =>
        newEvent(
          JSON.parse(
            JSON.stringify(e)
              .replaceAll('"agentId":104', '"agentId":101')
              .replaceAll('"toAgentId":104', '"toAgentId":101')
              .replaceAll('"borrowerAgentId":104', '"borrowerAgentId":101'),
          ) as typeof e,
        ),
      ),
      'no_stream',
    );
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await database?.drop();
  });

  it('follows the event store into the facts with its checkpoint, and npm run rebuild gives the same rows', async () => {
    const source = await startAnalyticsSource(
      {
        name: ANALYTICS_FACTS_CONSUMER,
        pool,
        store,
        config: { KAFKA_BROKERS: undefined, KAFKA_TOPIC: 'unused' },
        logger: createLogger('silent'),
      },
      analyticsFactsHandler,
    );
    await source.caughtUp;
    await source.close();
    const head = await store.headPosition();
    expect(formatPosition(await loadCheckpoint(pool, ANALYTICS_FACTS_CHECKPOINT))).toBe(formatPosition(head));
    const followed = await snapshot();
    // d1 was agreed while its borrower named London, d4 after it moved to Leeds.
    // The rows come in deal id order (the ids are UUIDs named by their labels).
    const byId = (rows: (string | number)[][]) => rows.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(followed.rm_an_deals!.map((d) => [d.deal_id, d.region, Number(d.property_value), d.status])).toEqual(
      byId([
        [dealUuid('d1'), 'london', 400_001, 'completed'],
        [dealUuid('d2'), 'london', 400_002, 'agreed'],
        [dealUuid('d3'), 'london', 400_003, 'agreed'],
        [dealUuid('d4'), 'leeds', 400_004, 'agreed'],
      ]),
    );
    expect(
      followed.rm_an_leads!.map((l) => [
        Number(l.agent_id),
        l.created_at !== null,
        l.qualified_at !== null,
        l.agreed_at !== null,
        l.completed_at !== null,
      ]),
    ).toEqual([
      [101, true, true, true, true],
      [102, true, true, true, false],
      [103, true, true, true, false],
    ]);
    // The lender's name and criteria come from the consumer's own copy, not the projector's rm_agents.
    // Three London deals of too few firms: the market says Not enough data (5 deals from 3 firms back a figure).
    const market = await readMarket(pool, 'london', 'last3', null);
    expect(market).toMatchObject({ deals: null, enoughData: false });
    const facts = await pool.query(
      `select region, avg(property_value)::int as price, count(*)::int as n from rm_an_deals group by region order by region`,
    );
    expect(facts.rows).toEqual([
      { region: 'leeds', price: expect.any(Number) as unknown, n: 1 },
      { region: 'london', price: 400_002, n: 3 },
    ]);
    const lender = await pool.query<{ name: string }>(`select name from rm_an_agents where type = 'lender'`);
    expect(lender.rows.map((r) => r.name)).toEqual(['lender 2']);

    await inTransaction(pool, (client) => rebuildAnalyticsFacts(client, store, 2));
    expect(await snapshot()).toEqual(followed);
    expect(formatPosition(await loadCheckpoint(pool, ANALYTICS_FACTS_CHECKPOINT))).toBe(formatPosition(head));
    // The rebuild set the watermark to the head rather than claiming each event: a Kafka consumer that
    // redelivers them afterwards changes nothing.
    expect(await claims()).toBe(0);
    expect(await loadAppliedThrough(pool, ANALYTICS_FACTS_CONSUMER)).toEqual(head);
    const all: RecordedEvent[] = await store.readAll({ commit: 0n, prepare: 0n }, 1000);
    expect(await applyOnce(pool, ANALYTICS_FACTS_CONSUMER, all, analyticsFactsHandler)).toEqual([]);
    expect(await snapshot()).toEqual(followed);
  });

  it('from Kafka (no source checkpoint, redeliveries), applies each event once and moves its checkpoint to the furthest event', async () => {
    await forget();
    await pool.query('delete from checkpoints where name = $1', [ANALYTICS_FACTS_CHECKPOINT]);
    const all = await store.readAll({ commit: 0n, prepare: 0n }, 1000);
    const half = Math.ceil(all.length / 2);
    // Two batches, the second redelivering part of the first (at-least-once), no checkpoint from the source.
    await applyOnce(pool, ANALYTICS_FACTS_CONSUMER, all.slice(0, half), analyticsFactsHandler);
    const mid = await loadCheckpoint(pool, ANALYTICS_FACTS_CHECKPOINT);
    expect(formatPosition(mid)).toBe(formatPosition(all[half - 1]!.position));
    const applied = await applyOnce(pool, ANALYTICS_FACTS_CONSUMER, all.slice(half - 3), analyticsFactsHandler);
    expect(applied).toHaveLength(all.length - half);
    expect(formatPosition(await loadCheckpoint(pool, ANALYTICS_FACTS_CHECKPOINT))).toBe(formatPosition(all[all.length - 1]!.position));
    const viaKafka = await snapshot();
    await inTransaction(pool, (client) => rebuildAnalyticsFacts(client, store, 500));
    expect(await snapshot()).toEqual(viaKafka);
  });

  it('from Kafka, whose partitions interleave streams in any order, folds the same rows as the event store in global order', async () => {
    await inTransaction(pool, (client) => rebuildAnalyticsFacts(client, store, 500));
    const global = await snapshot();
    const all = await store.readAll({ commit: 0n, prepare: 0n }, 1000);
    const byStream = new Map<string, RecordedEvent[]>();
    for (const event of all) byStream.set(event.stream, [...(byStream.get(event.stream) ?? []), event]);
    // Each stream whole and in its own order, the streams last-first: deals before their agents, deal d1's life
    // before its DealAgreed, the borrower's move to Leeds before the deals it came after.
    for (const order of [
      [...byStream.values()].reverse(),
      [...byStream.values()].sort((a, b) => a[0]!.stream.localeCompare(b[0]!.stream)),
    ]) {
      await forget();
      for (const stream of order)
        for (const event of stream) await applyOnce(pool, ANALYTICS_FACTS_CONSUMER, [event], analyticsFactsHandler);
      expect(await snapshot()).toEqual(global);
    }
  });

  it('from Kafka, a read waits for its event: claimed, or at or before the watermark a rebuild set', async () => {
    await forget();
    const all = await store.readAll({ commit: 0n, prepare: 0n }, 1000);
    const wait = analyticsReadWait(pool, store, { READ_WAIT_TIMEOUT_MS: 150, KAFKA_BROKERS: ['kafka:9092'] });
    const readAfter = (event: RecordedEvent) =>
      wait({ headers: { 'x-after-position': formatPosition(event.position) } } as unknown as FastifyRequest);
    const [early, late, last] = [all[2]!, all[all.length - 2]!, all[all.length - 1]!];
    // Neither claimed nor under a watermark: the read times out.
    await expect(readAfter(early)).rejects.toBeInstanceOf(NotCaughtUp);
    // A rebuild reached `early`'s successor: `early` is applied though never claimed; `late` still is not.
    await advanceAppliedThrough(pool, ANALYTICS_FACTS_CONSUMER, all[3]!.position);
    await expect(readAfter(early)).resolves.toBeUndefined();
    await expect(readAfter(late)).rejects.toBeInstanceOf(NotCaughtUp);
    // Delivered from Kafka (in a batch that redelivers `early` too): `late` is claimed, `early` is skipped.
    const applied = await applyOnce(pool, ANALYTICS_FACTS_CONSUMER, [early, late], analyticsFactsHandler);
    expect(applied.map((e) => e.id)).toEqual([late.id]);
    await expect(readAfter(late)).resolves.toBeUndefined();
    expect(await claims()).toBe(1);
    await expect(readAfter(last)).rejects.toBeInstanceOf(NotCaughtUp);
  });
});
