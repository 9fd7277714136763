import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { formatPosition, type AnalyticsReportView, type DailyAnalyticsView } from '@pf/events';
import {
  applyInLogOrder,
  applyOnce,
  createHttpServer,
  createLogger,
  openServiceContext,
  parseConfig,
  saveCheckpoint,
  SESSION_COOKIE,
  sessionPlugin,
  type NewEvent,
  type OpenedContext,
} from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { READ_MODELS_PROJECTION } from '../../projector/checkpoint';
import { ANALYTICS_FACTS_CONSUMER, analyticsFactsHandler } from './consumer';
import { analyticsReportRoutes } from './routes';
import { analyticsRoutes as dailyRoutes } from '../../daily-analytics/routes';
import { analyticsMigrations as dailyMigrations } from '../../daily-analytics/schema';
import { dailyAnalytics } from '../../daily-analytics/daily-analytics';
import { analyticsMigrations } from './schema';
import { ReadModelProgress } from '../../projection-kit/progress';
import { eventFeedReadModel } from '../event-feed/projection';

/** Read your writes on Analytics & Reports: a read naming a position waits for the analytics consumer, not the projector. */
describe('analytics routes wait on the analytics consumer’s checkpoint', () => {
  let database: TestDatabase;
  let context: OpenedContext;
  const apps: FastifyInstance[] = [];
  let base = '';
  let kafkaBase = '';
  let cookie = '';
  // The agents are the signed-in person's (their firm of one): Analytics shows a firm its own.
  let ownerId = '';

  /** The routes as a query-service serves them; with KAFKA_BROKERS the consumer is Kafka's (no broker is contacted here). */
  async function serve(env: Record<string, string>): Promise<string> {
    const config = parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', AUTOMATION: 'off', READ_WAIT_TIMEOUT_MS: '300', ...env });
    const app = await createHttpServer(config, createLogger('warn', 'analytics-routes-test'));
    apps.push(app);
    await app.register(sessionPlugin, { sessions: context.sessions });
    await app.register(analyticsReportRoutes, { ...context, config });
    await app.register(dailyRoutes, { ...context, config, progress: new ReadModelProgress(context.pool, READ_MODELS_PROJECTION) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', AUTOMATION: 'off' });
    context = await openServiceContext(config, createLogger('warn', 'analytics-routes-test'), database.url, [
      ...analyticsMigrations,
      ...dailyMigrations,
      ...eventFeedReadModel.migrations,
    ]);
    base = await serve({});
    kafkaBase = await serve({ KAFKA_BROKERS: '127.0.0.1:1' });
    const { token, user } = await context.sessions.signInGuest('analytics routes test');
    ownerId = user.id;
    cookie = `${SESSION_COOKIE}=${encodeURIComponent(token)}`;
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await context?.close();
    await database?.drop();
  });

  const report = (after?: string, at = base) =>
    fetch(`${at}/api/analytics/report?period=last7`, { headers: { cookie, ...(after ? { 'x-after-position': after } : {}) } });
  const borrowerCreated = (agentId: number, name: string): NewEvent => ({
    id: randomUUID(),
    type: 'AgentCreated',
    data: { agentId, ownerId, name, type: 'borrower', description: '', criteria: null },
    metadata: { actor: { kind: 'system' as const, name: 'test' }, correlationId: 'c', causationId: null },
  });

  it('answers 503 while the consumer has not reached the position (whatever the projector says), then the figures with the write in them', async () => {
    const written = await context.store.append('agent-501', [borrowerCreated(501, 'Nia Evans')], 'no_stream');
    const position = formatPosition(written.position);
    // The projector is past the write; the analytics consumer is not.
    await saveCheckpoint(context.pool, READ_MODELS_PROJECTION, written.position);
    const waiting = await report(position);
    expect(waiting.status).toBe(503);

    // The consumer applies the write (rows and checkpoint in one transaction): the same read now sees it.
    const events = await context.store.readAll({ commit: 0n, prepare: 0n }, 10);
    await applyInLogOrder(context.pool, ANALYTICS_FACTS_CONSUMER, events, analyticsFactsHandler, events.at(-1)!.position);
    const answered = await report(position);
    expect(answered.status).toBe(200);
    const body = (await answered.json()) as AnalyticsReportView;
    expect(body.funnel[0]).toMatchObject({ stage: 'Leads', count: 1 });

    expect((await report('not-a-position')).status).toBe(400);
  });

  it('from Kafka (no global order), waits for the event written at the position to be applied', async () => {
    const written = await context.store.append('agent-502', [borrowerCreated(502, 'Owen Price')], 'no_stream');
    const position = formatPosition(written.position);
    expect((await report(position, kafkaBase)).status).toBe(503);
    // Kafka hands the consumer this stream's event; it keeps no checkpoint of its own (applyOnce).
    const [event] = await context.store.readStream('agent-502');
    await applyOnce(context.pool, ANALYTICS_FACTS_CONSUMER, [event!], analyticsFactsHandler);
    const answered = await report(position, kafkaBase);
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as AnalyticsReportView).funnel[0]).toMatchObject({ stage: 'Leads', count: 2 });
    // A position no event was written at is the client's mistake, not a wait.
    expect((await report('999999:999999', kafkaBase)).status).toBe(400);
  });

  it("GET /api/analytics/daily waits the same way for the daily consumer, and counts only the reader's firm's events", async () => {
    // Another firm's agent, written first: the reader's firm is told nothing of it.
    const theirs = borrowerCreated(504, 'Someone Else');
    await context.store.append('agent-504', [{ ...theirs, data: { ...(theirs.data as object), ownerId: 'another-firm' } }], 'no_stream');
    const written = await context.store.append('agent-503', [borrowerCreated(503, 'Ravi Patel')], 'no_stream');
    const daily = (at: string) =>
      fetch(`${at}/api/analytics/daily?days=1`, { headers: { cookie, 'x-after-position': formatPosition(written.position) } });
    expect((await daily(base)).status).toBe(503);
    const events = await context.store.readAll({ commit: 0n, prepare: 0n }, 10);
    await applyInLogOrder(context.pool, 'daily', events, dailyAnalytics, events.at(-1)!.position);
    // The counts are joined with the streams' firms, which the projector keeps: the read waits for it too.
    expect((await daily(base)).status).toBe(503);
    const client = await context.pool.connect();
    try {
      await eventFeedReadModel.project(client, events);
    } finally {
      client.release();
    }
    await saveCheckpoint(context.pool, READ_MODELS_PROJECTION, written.position);
    const answered = await daily(base);
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as DailyAnalyticsView).events).toEqual([
      { day: new Date().toISOString().slice(0, 10), type: 'AgentCreated', count: 3 },
    ]);
  });
});
