import { formatPosition, type StatsView } from '@pf/events';
import type { OpenedContext } from '@pf/infra';
import { liveRebuild } from '@pf/query-service';
import type { ChildServer } from '../lib/children';
import { appendUserHistory, EVENTS_PER_USER, generateEvents, reserveIds } from '../lib/generate';
import { benchUser, call, expectStatus, type BenchUser, type Readiness } from '../lib/session';
import { percentile, round, sleep } from '../lib/stats';
import { measureWsPush } from './ws-push';

export interface ReplayResult {
  readonly rebuild_events_per_s: number;
  readonly rebuild_events: number;
  readonly rebuild_seconds: number;
  readonly stats_p50_ms_small: number;
  readonly stats_p50_ms_large: number;
  readonly stats_latency_growth: number;
  readonly stats_p50_ms_during_catch_up: number;
  readonly stats_latency_during_catch_up: number;
  readonly rebuild_push_p99_ms: number;
  readonly rebuild_push_p50_ms: number;
  readonly rebuild_push_messages: number;
  readonly rebuild_push_missed: number;
  readonly live_rebuild_events_per_s: number;
  readonly live_rebuild_switch_ms: number;
}

/** Until /readyz names every follower of the log at lag 0 (twice running): the followers have caught up. */
async function caughtUp(url: string): Promise<void> {
  let settled = 0;
  const deadline = performance.now() + 10 * 60_000;
  while (settled < 2) {
    if (performance.now() > deadline) throw new Error('The followers did not catch up within 10 minutes');
    const answer = await call<Readiness | null>(url, null, 'GET', '/readyz');
    // Followers of the log have a position and a lag; the listeners (presence, typing) have neither.
    const followers = (answer.body?.followers ?? []).filter((f) => f.position !== null);
    settled = answer.status === 200 && followers.length > 0 && followers.every((f) => f.lag === 0) ? settled + 1 : 0;
    await sleep(250);
  }
}

/** p50 of sequential GET /api/stats once the read models hold every stored event. */
async function statsP50(url: string, user: BenchUser, context: OpenedContext, requests: number): Promise<number> {
  const head = formatPosition(await context.store.headPosition());
  const first = expectStatus(await call<StatsView>(url, user, 'GET', '/api/stats', undefined, head), 200, 'stats');
  if (first.body.activeAgents !== 3) throw new Error(`The stats user should have 3 agents, not ${first.body.activeAgents}`);
  for (let i = 0; i < 20; i++) await call(url, user, 'GET', '/api/stats');
  const samples: number[] = [];
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    expectStatus(await call(url, user, 'GET', '/api/stats'), 200, 'stats');
    samples.push(performance.now() - started);
  }
  return percentile(samples, 50);
}

/**
 * One user with the same history throughout; GET /api/stats with `small` events stored, then with
 * `large`: the other users' histories are appended with the server stopped and the read models rebuilt
 * (liveRebuild, timed, nothing else running). The server is started again: its followers (the deal opener
 * above all) catch up on what was appended while it was stopped, and the stats are measured while they do
 * (`stats_latency_during_catch_up`) and once /readyz says every follower is at the head
 * (`stats_latency_growth`, as a person meets it). Then, with the server running, 100 sockets watch a
 * conversation while the read models are rebuilt live again: `rebuild_push_p99_ms`.
 */
export async function measureReplay(options: {
  context: OpenedContext;
  start: () => Promise<ChildServer>;
  small: number;
  large: number;
  requests: number;
}): Promise<ReplayResult> {
  const { context } = options;
  let server = await options.start();
  const user = await benchUser(context.sessions);
  await appendUserHistory(context.store, await reserveIds(context.pool, 1), user.id, 0);
  await generateEvents(context.pool, context.store, options.small - EVENTS_PER_USER);
  const small = await statsP50(server.url, user, context, options.requests);
  await server.close();

  const stored = async () => Number((await context.pool.query<{ n: string }>('select count(*) as n from events')).rows[0]!.n);
  await generateEvents(context.pool, context.store, options.large - (await stored()));
  const started = performance.now();
  const { applied } = await liveRebuild(context.pool, context.store);
  const seconds = (performance.now() - started) / 1000;

  server = await options.start();
  const duringCatchUp = await statsP50(server.url, user, context, options.requests);
  await caughtUp(server.url);
  const large = await statsP50(server.url, user, context, options.requests);

  const watcher = await benchUser(context.sessions);
  let live = { applied: 0, seconds: 1, switchMs: 0 };
  const push = await measureWsPush({
    productUrl: server.url,
    user: watcher,
    sockets: 100,
    messages: 10,
    during: async () => (live = await liveRebuild(context.pool, context.store)),
  });
  await server.close();
  return {
    rebuild_events_per_s: round(applied / seconds, 0),
    rebuild_events: applied,
    rebuild_seconds: round(seconds, 2),
    stats_p50_ms_small: round(small, 2),
    stats_p50_ms_large: round(large, 2),
    stats_latency_growth: round(large / small, 3),
    stats_p50_ms_during_catch_up: round(duringCatchUp, 2),
    stats_latency_during_catch_up: round(duringCatchUp / small, 3),
    rebuild_push_p99_ms: push.ws_push_ms.p99,
    rebuild_push_p50_ms: push.ws_push_ms.p50,
    rebuild_push_messages: push.ws_push_ms.samples / push.ws_sockets,
    rebuild_push_missed: push.ws_missed_pushes,
    live_rebuild_events_per_s: round(live.applied / live.seconds, 0),
    live_rebuild_switch_ms: round(live.switchMs, 1),
  };
}
