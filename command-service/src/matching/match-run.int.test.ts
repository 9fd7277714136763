import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { streams, type EventMetadata, type ApiError, type MatchRequestAnswer } from '@pf/events';
import {
  createHttpServer,
  createLogger,
  openServiceContext,
  parseConfig,
  SESSION_COOKIE,
  sessionPlugin,
  type OpenedContext,
} from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { dealRoutes } from '../deal/routes';
import { matchRequestRoutes } from './routes';

/**
 * Over a real socket and real PostgreSQL: a Match request's outcome (waiting, then the matcher's answer with
 * its note) for its asker only, with bad input refused naming the field; and New Deal refusing a target
 * completion that is no calendar date with a 400 that names it.
 */
describe("a Match request's outcome, and New Deal's target completion", () => {
  let database: TestDatabase;
  let context: OpenedContext;
  let app: FastifyInstance;
  let base = '';
  const cookies: Record<'alice' | 'mallory', string> = { alice: '', mallory: '' };
  const ids: Record<'alice' | 'mallory', string> = { alice: '', mallory: '' };
  const [borrower, lender] = [901, 902];

  const call = async <T = unknown>(who: 'alice' | 'mallory', method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { cookie: cookies[who], ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', AUTOMATION: 'off' });
    const log = createLogger('warn', 'match-run-test');
    context = await openServiceContext(config, log, database.url, []);
    app = await createHttpServer(config, log);
    await app.register(sessionPlugin, { sessions: context.sessions });
    await app.register(matchRequestRoutes, context);
    await app.register(dealRoutes, context);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    for (const who of ['alice', 'mallory'] as const) {
      const { token, user } = await context.sessions.signInGuest('match-run test');
      cookies[who] = `${SESSION_COOKIE}=${encodeURIComponent(token)}`;
      ids[who] = user.id;
    }
    const metadata: EventMetadata = { actor: { kind: 'user', userId: ids.alice }, correlationId: 'c', causationId: null };
    for (const [agentId, type, name] of [
      [borrower, 'borrower', 'Amelia Hart'],
      [lender, 'lender', 'Northgate'],
    ] as const) {
      await context.store.append(
        streams.agent(agentId),
        [
          {
            id: randomUUID(),
            type: 'AgentCreated',
            data: { agentId, ownerId: ids.alice, name, type, description: '', criteria: {} },
            metadata,
          },
        ],
        'no_stream',
      );
    }
  });
  afterAll(async () => {
    await app?.close();
    await context?.close();
    await database?.drop();
  });

  it('answers waiting, then the matcher’s answer with its note; to its asker only', async () => {
    const asked = await call<MatchRequestAnswer>('alice', 'POST', `/api/leads/${borrower}/match`);
    expect(asked.status).toBe(202);
    const { requestId } = asked.body;
    const path = `/api/leads/${borrower}/match/${requestId}`;
    expect(await call('alice', 'GET', path)).toMatchObject({
      status: 200,
      body: { requestId, agentId: borrower, status: 'requested', answeredAt: null, newMatches: null, note: null },
    });

    const note =
      'No new match at 70 or more: every counterpart that fits is already in conversation, at its limit of 3, or scores below 70';
    await context.store.append(
      streams.matchRun(requestId),
      [
        {
          id: randomUUID(),
          type: 'MatchRunCompleted',
          data: { requestId, agentId: borrower, matchIds: [], note },
          metadata: { actor: { kind: 'system', name: 'matcher' }, correlationId: 'c', causationId: null },
        },
      ],
      0,
    );
    const answered = await call('alice', 'GET', path);
    expect(answered.body).toMatchObject({ status: 'answered', newMatches: 0, note, answeredAt: expect.any(String) as unknown });

    expect(await call('mallory', 'GET', path)).toMatchObject({ status: 404, body: { message: `Match request ${requestId} not found` } });
    expect((await call('alice', 'GET', `/api/leads/${lender}/match/${requestId}`)).status).toBe(404);
    expect((await call('alice', 'GET', `/api/leads/${borrower}/match/${randomUUID()}`)).status).toBe(404);
    const bad = await call('alice', 'GET', `/api/leads/${borrower}/match/not-an-id`);
    expect(bad).toMatchObject({ status: 400, body: { message: expect.stringContaining('requestId') as unknown } });
  });

  it('refuses New Deal with an impossible target completion, naming the field, and takes a real one', async () => {
    const deal = {
      propertyAddress: '12 Elm Street',
      borrowerAgentId: borrower,
      lenderAgentId: lender,
      propertyValue: 400_000,
      loanAmount: 300_000,
      interestRate: 4.3,
      termYears: 25,
    };
    const refused = await call<ApiError>('alice', 'POST', '/api/deals', { ...deal, targetCompletion: '2026-13-45' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('targetCompletion');
    expect(refused.body.message).toContain('Target completion must be a real calendar date; 2026-13-45 is not one');
    expect((await call('alice', 'POST', '/api/deals', { ...deal, targetCompletion: '2026-02-29' })).status).toBe(400);
    expect(await call('alice', 'POST', '/api/deals', { ...deal, targetCompletion: '2028-02-29' })).toMatchObject({
      status: 201,
      body: { id: expect.any(String) as unknown },
    });
  });
});
