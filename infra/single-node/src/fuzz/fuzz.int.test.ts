import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import type { RunningServer } from '../server';
import type { ApiClient } from '../testing/api-client';
import { testServerEnv } from '../testing/server-env';
import type { FuzzTarget } from './report';
import { fuzz } from './run';
import { startFuzzTarget, stillHealthy } from './target';

/** A smaller run of `npm run fuzz` inside npm test: the same generators against a real single node. */
describe('fuzzing every HTTP route and socket message on a real single node', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let client: ApiClient;
  let target: FuzzTarget;
  beforeAll(async () => {
    database = await createTestDatabase();
    ({ server, client, target } = await startFuzzTarget(
      testServerEnv(database.url, {
        RATE_LIMIT_PER_MINUTE: '10000000',
        READ_WAIT_TIMEOUT_MS: '300',
        AUTOMATION: 'on',
        AGENT_REPLY_DELAY_MS: '0',
      }),
    ));
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('answers 600 hostile HTTP inputs, 150 socket frames and 150 aimed inputs without a 5xx, a crash or a closed socket', async () => {
    // Routes come from the app itself (onRoute), so a route added later is fuzzed too.
    expect(target.routes.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining([
        'POST /api/agents',
        'PUT /api/agents/:id',
        'PATCH /api/conversations/:id',
        'GET /api/conversations/:id/messages',
      ]),
    );
    const report = await fuzz(target, { httpRuns: 600, socketRuns: 150, targetedRuns: 150, concurrency: 6 });
    console.log(
      `[fuzz] seed ${report.seed}: ${report.httpInputs} HTTP ${JSON.stringify(report.statusCounts)}, ${report.socketInputs} socket frames`,
    );
    expect(report.counterexamples).toEqual([]);
    expect(report.serverErrors).toEqual([]);
    expect(report.socketServerErrors).toEqual([]);
    expect(report.crashes).toEqual([]);
    expect(report.socketsClosedUnexpectedly).toBe(0);
    expect(report.httpInputs + report.socketInputs).toBe(750);
    // Cross-site sign-outs, other people's notification ids, invisible characters, made-up cursors and searches, feed
    // positions and idempotent uploads each got the answer they must.
    const aimed = Object.values(report.targeted);
    expect(aimed.reduce((sum, tally) => sum + tally.tried, 0)).toBe(150);
    expect(Object.keys(report.targeted).sort()).toEqual([
      'control character',
      'cross-site logout',
      'feed position',
      'foreign notification',
      'idempotent upload',
      'paging cursor',
      'paging search',
    ]);
    for (const tally of aimed) expect(tally.asExpected).toBe(tally.tried);
    expect(report.statusCounts['4xx']).toBeGreaterThan(100); // hostile input is refused, not ignored
    expect(await stillHealthy(server, client)).toEqual([]);
  }, 240_000);
});
