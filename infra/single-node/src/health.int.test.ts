import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { ConfigError, parseConfig } from '@pf/infra';
import { READ_MODEL_TABLES } from '@pf/query-service';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { testServerEnv } from './testing/server-env';

type Readiness = {
  status: string;
  message?: string;
  database: { ok: boolean };
  followers: { name: string; state: string; lag: number | null; position: string | null }[];
};

/** Reads /readyz until it answers `status` (bounded by the test's timeout). */
async function eventuallyReady(
  url: string,
  status: number,
  naming: (body: Readiness) => boolean = () => true,
): Promise<{ body: Readiness; retryAfter: string | null }> {
  for (;;) {
    const response = await fetch(`${url}/readyz`);
    const body = (await response.json()) as Readiness;
    if (response.status === status && naming(body)) return { body, retryAfter: response.headers.get('retry-after') };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('health of the single node', () => {
  let database: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(testServerEnv(database.url, { AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0', READY_MAX_LAG_EVENTS: '5' }));
    await server.caughtUp;
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('answers liveness, and readiness with every follower of the stream, its position and lag', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const alice = await ApiClient.signIn(server.url);
    await alice.post('/api/agents', { name: 'Amelia Hart', type: 'borrower' });
    await alice.get('/api/agents');

    let body: Readiness;
    for (;;) {
      const response = await fetch(`${server.url}/readyz`);
      body = (await response.json()) as Readiness;
      if (response.status === 200 && body.followers.every((follower) => !follower.lag)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(body.status).toBe('ready');
    expect(body.database.ok).toBe(true);
    expect(body.followers.map((follower) => follower.name).sort()).toEqual(
      [
        'analytics:daily',
        'analytics:facts',
        'deal opener',
        'illustration maker',
        'presence listener',
        'process manager: automation',
        'process manager: response-time',
        'read-model projector',
        'realtime-gateway',
        'typing listener',
      ].sort(),
    );
    const projector = body.followers.find((follower) => follower.name === 'read-model projector')!;
    expect(projector).toMatchObject({ state: 'running', lag: 0 });
    expect(projector.position).toBe(alice.lastPosition);
  });

  it('answers 503 with the reason while a follower lags by more than READY_MAX_LAG_EVENTS, and 200 once it caught up', async () => {
    // The read-model tables locked against writes (EXCLUSIVE, not ACCESS EXCLUSIVE: that one takes a transaction
    // id, which would hide new events from every reader): the projector waits at its next batch while commands
    // keep appending and the other followers read on.
    const holder = new pg.Client({ connectionString: database.url });
    holder.on('error', () => undefined);
    await holder.connect();
    await holder.query(`begin; lock table ${READ_MODEL_TABLES.join(', ')} in exclusive mode`);
    const bob = await ApiClient.signIn(server.url);
    for (let i = 0; i < 8; i++) expect((await bob.post('/api/agents', { name: `Agent ${i}`, type: 'lender' })).status).toBe(201);
    // Other followers (the deal opener) may be named first while they take in the new events; the projector's turn comes.
    const lagging = await eventuallyReady(server.url, 503, (body) => /read-model projector/.test(body.message ?? ''));
    expect(lagging.retryAfter).toBe('2');
    // Lagging, or (on a slow machine, once the blocked batch passed the 15 s statement timeout) failing: named either way.
    expect(lagging.body.message).toMatch(
      /read-model projector (lags by more than 5 events|is failing \(canceling statement due to statement timeout\))/,
    );
    expect(lagging.body.followers.find((follower) => follower.name === 'read-model projector')!.lag).toBeGreaterThan(5);

    await holder.query('commit');
    await holder.end();
    const caughtUp = await eventuallyReady(server.url, 200);
    expect(caughtUp.body.followers.find((follower) => follower.name === 'read-model projector')!.lag).toBeLessThanOrEqual(5);
  });

  it('refuses a READY_MAX_LAG_EVENTS that is not a positive whole number, naming it', () => {
    expect(() => parseConfig({ READY_MAX_LAG_EVENTS: '0' })).toThrow(ConfigError);
    expect(() => parseConfig({ READY_MAX_LAG_EVENTS: 'lots' })).toThrow(/READY_MAX_LAG_EVENTS/);
  });
});
