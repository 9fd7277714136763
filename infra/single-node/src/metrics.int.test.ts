import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { testServerEnv } from './testing/server-env';
import { parseMetrics, valueOf, type Sample } from './testing/metrics-text';

/**
 * GET /metrics on a running node (docs/operations/observability.md): the series are there, and the counts move with
 * the requests, commands, appends, batches and pushes the test causes.
 */
describe('metrics of the single node', () => {
  let database: TestDatabase;
  let server: RunningServer;

  const scrape = async (): Promise<Sample[]> => {
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseMetrics(await response.text());
  };
  /** Scrapes until `holds` is true of the samples (bounded by the test's timeout). */
  const scrapeUntil = async (holds: (samples: Sample[]) => boolean): Promise<Sample[]> => {
    for (;;) {
      const samples = await scrape();
      if (holds(samples)) return samples;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(testServerEnv(database.url));
    await server.caughtUp;
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('counts HTTP requests by route and status, commands decided and refused, and appends', async () => {
    const before = await scrape();
    const alice = await ApiClient.signIn(server.url);
    for (const name of ['Amelia Hart', 'Bilal Shah', 'Chloe Evans']) {
      expect((await alice.post('/api/agents', { name, type: 'borrower' })).status).toBe(201);
    }
    // Another person's agent: refused by the decider, which finds no agent of theirs by that id.
    const bob = await ApiClient.signIn(server.url);
    const created = await alice.post<{ id: number }>('/api/agents', { name: 'Dev Patel', type: 'lender' });
    expect((await bob.put(`/api/agents/${created.body.id}`, { isActive: false })).status).toBe(404);

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
    const posted = { http_request_method: 'POST', http_route: '/api/agents', http_response_status_code: '201' };
    expect(moved('http_server_request_duration_seconds_count', posted)).toBe(4);
    expect(valueOf(after, 'http_server_request_duration_seconds_bucket', { ...posted, le: '+Inf' })).toBe(
      valueOf(after, 'http_server_request_duration_seconds_count', posted),
    );
    expect(moved('http_server_request_duration_seconds_sum', posted)).toBeGreaterThan(0);
    expect(
      moved('http_server_request_duration_seconds_count', {
        http_request_method: 'PUT',
        http_route: '/api/agents/:id',
        http_response_status_code: '404',
      }),
    ).toBe(1);
    expect(moved('commands_decided_total', { command: 'CreateAgent' })).toBe(4);
    expect(moved('commands_refused_total', { command: 'ChangeAgent', reason: 'not_found' })).toBe(1);
    expect(moved('eventstore_appends_total', { outcome: 'stored' })).toBeGreaterThanOrEqual(4);
    expect(moved('eventstore_appended_events_total')).toBeGreaterThanOrEqual(4);
    expect(moved('eventstore_append_duration_seconds_count')).toBe(moved('eventstore_appends_total'));
    expect(valueOf(after, 'db_client_connection_max')).toBe(20);
    expect(valueOf(after, 'db_client_connection_count', { db_client_connection_state: 'idle' })).toBeGreaterThan(0);
  });

  it("reports every follower's position, lag, batches and restarts, and the gateway's sockets and pushes", async () => {
    const alice = await ApiClient.signIn(server.url);
    const socket = new WebSocket(server.url.replace('http', 'ws') + '/ws', { headers: { cookie: alice.cookie, origin: server.url } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    try {
      const before = await scrapeUntil((samples) => valueOf(samples, 'realtime_sockets_open') >= 1);
      expect((await alice.post('/api/agents', { name: 'Erin Walsh', type: 'borrower' })).status).toBe(201);
      const projector = { follower: 'read-model projector' };
      // The projector has handled the new event (a counter, moved as it happens) and the lag, which is read from the
      // store at most once a second (infra/src/observability/collected.ts), has been read since.
      const after = await scrapeUntil(
        (samples) =>
          valueOf(samples, 'realtime_pushes_total') > valueOf(before, 'realtime_pushes_total') &&
          valueOf(samples, 'follower_events_handled_total', projector) > valueOf(before, 'follower_events_handled_total', projector) &&
          valueOf(samples, 'follower_lag_events', projector) === 0,
      );
      expect(valueOf(after, 'realtime_push_latency_seconds_count')).toBeGreaterThan(valueOf(before, 'realtime_push_latency_seconds_count'));
      expect(valueOf(after, 'follower_batch_duration_seconds_count', projector)).toBeGreaterThan(
        valueOf(before, 'follower_batch_duration_seconds_count', projector),
      );
      expect(valueOf(after, 'follower_events_handled_total', projector)).toBeGreaterThan(
        valueOf(before, 'follower_events_handled_total', projector),
      );
      expect(valueOf(after, 'follower_position', projector)).toBeGreaterThan(0);
      expect(valueOf(after, 'follower_lag_seconds', projector)).toBe(0);
      expect(valueOf(after, 'follower_state', { ...projector, state: 'running' })).toBe(1);
      expect(after.some((sample) => sample.name === 'follower_restarts_total' && sample.labels.follower === 'realtime-gateway')).toBe(true);
    } finally {
      socket.close();
    }
    await scrapeUntil((samples) => valueOf(samples, 'realtime_sockets_open') === 0);
  });

  it('answers 403 in words to an address METRICS_ALLOW does not name', async () => {
    const database2 = await createTestDatabase();
    const guarded = await startSingleNode(testServerEnv(database2.url, { METRICS_ALLOW: '192.0.2.0/24' }));
    try {
      const response = await fetch(`${guarded.url}/metrics`);
      expect(response.status).toBe(403);
      expect(((await response.json()) as { message: string }).message).toBe(
        'Metrics are for the scrapers METRICS_ALLOW names; 127.0.0.1 is not one of them',
      );
    } finally {
      await guarded.close();
      await database2.drop();
    }
  });
});
