import { formatPosition } from '@pf/events';
import type { OpenedContext } from '@pf/infra';
import { rebuildReadModels } from '@pf/query-service';
import type { ChildServer } from '../lib/children';
import { appendUserHistory, EVENTS_PER_USER, generateEvents, reserveIds } from '../lib/generate';
import { benchUser, call, expectStatus, type BenchUser } from '../lib/session';
import { percentile, round } from '../lib/stats';

export interface ReplayResult {
  readonly rebuild_events_per_s: number;
  readonly rebuild_events: number;
  readonly rebuild_seconds: number;
  readonly stats_p50_ms_small: number;
  readonly stats_p50_ms_large: number;
  readonly stats_latency_growth: number;
}

/** p50 of sequential GET /api/stats once the read models hold every stored event. */
async function statsP50(url: string, user: BenchUser, context: OpenedContext, requests: number): Promise<number> {
  const head = formatPosition(await context.store.headPosition());
  const first = expectStatus(await call(url, user, 'GET', '/api/stats', undefined, head), 200, 'stats');
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
 * `large`: the other users' histories are appended with the server stopped and replayed by
 * rebuildReadModels (timed), and the server is started again on the rebuilt read models.
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
  const applied = await rebuildReadModels(context.pool, context.store);
  const seconds = (performance.now() - started) / 1000;

  server = await options.start();
  const large = await statsP50(server.url, user, context, options.requests);
  await server.close();
  return {
    rebuild_events_per_s: round(applied / seconds, 0),
    rebuild_events: applied,
    rebuild_seconds: round(seconds, 2),
    stats_p50_ms_small: round(small, 2),
    stats_p50_ms_large: round(large, 2),
    stats_latency_growth: round(large / small, 3),
  };
}
