import { readFile } from 'node:fs/promises';
import type { Position } from '@pf/events';
import type { OpenedContext } from '@pf/infra';
import { liveRebuild } from '@pf/query-service';
import type { ChildServer } from '../lib/children';
import { randomUUID } from 'node:crypto';
import { formatPosition, streams, type DomainEvent } from '@pf/events';
import { generateEvents, reserveIds } from '../lib/generate';
import { productFollowersAtHead, productWork } from '../lib/product-work';
import { benchUser, call, expectStatus, type Readiness } from '../lib/session';
import { percentile, round, sleep } from '../lib/stats';
import { measureAppend } from './append';

export interface HistorySize {
  readonly events: number;
  readonly database_mb: number;
  readonly generate_s: number;
  readonly rebuild_s: number;
  /** The first start once the read models were rebuilt with the product stopped: every follower at lag 0. */
  readonly first_start_ready_ms: number;
  /** A plain restart: every follower at lag 0. */
  readonly restart_ready_ms: number;
  readonly restart_rss_mb: number;
  /** The first start after a live rebuild (the product running while it ran, then stopped and started). */
  readonly start_after_live_rebuild_ready_ms: number;
  readonly append_events_per_s_batch10: number;
  readonly append_events_per_s_batch1: number;
  /** Median of five reads of the last 10,000 events (the feed's read of recent positions). */
  readonly recent_feed_read_ms: number;
  /** One History scrub step (GET /api/conversations/:id/history?at=) on a 2,000-event conversation: p50 and p95 of 200. */
  readonly history_scrub_step_ms: { p50: number; p95: number };
}

/**
 * A conversation of 2,000 events (its start, then messages between its two agents) of a signed-in person's firm, then
 * 200 steps of the History scrubber at positions spread over it, as the screen asks them (after 20 to warm up).
 */
async function scrubSteps(context: OpenedContext, url: string): Promise<{ p50: number; p95: number }> {
  const user = await benchUser(context.sessions);
  const ids = await reserveIds(context.pool, 1);
  const agents = (['borrower', 'lender'] as const).map((type) => ({
    agentId: ids.agent(),
    ownerId: user.id,
    firmId: user.id,
    name: `Scrub ${type}`,
    type,
  }));
  const metadata = { actor: { kind: 'user' as const, userId: user.id }, correlationId: randomUUID(), causationId: null };
  const toNew = (event: DomainEvent) => ({ id: randomUUID(), type: event.type, data: event.data, metadata });
  for (const agent of agents) {
    await context.store.append(
      streams.agent(agent.agentId),
      [toNew({ type: 'AgentCreated', data: { ...agent, description: 'History scrub', criteria: null } })],
      'no_stream',
    );
  }
  const conversationId = ids.conversation();
  const stream = streams.conversation(conversationId);
  await context.store.append(
    stream,
    [
      toNew({
        type: 'ConversationStarted',
        data: { conversationId, title: 'Scrub borrower and Scrub lender', participants: agents, matchId: null },
      }),
    ],
    'no_stream',
  );
  for (let page = 0; page < 20; page++) {
    const events: DomainEvent[] = Array.from({ length: page === 19 ? 99 : 100 }, (_, i) => ({
      type: 'MessageSent',
      data: {
        conversationId,
        messageId: ids.message(),
        fromAgentId: agents[i % 2]!.agentId,
        toAgentId: agents[(i + 1) % 2]!.agentId,
        content: `Message ${page * 100 + i + 1} about the terms of the loan`,
        isAutomated: true,
      },
    }));
    await context.store.append(stream, events.map(toNew), page * 100);
  }
  const positions = (await context.store.readStream(stream)).map((event) => formatPosition(event.position));
  const step = async (i: number) => {
    const at = positions[Math.floor((i * 7919) % positions.length)]!;
    const began = performance.now();
    expectStatus(await call(url, user, 'GET', `/api/conversations/${conversationId}/history?at=${at}`), 200, 'history scrub step');
    return performance.now() - began;
  };
  for (let i = 0; i < 20; i++) await step(i);
  const samples: number[] = [];
  for (let i = 0; i < 200; i++) samples.push(await step(i));
  return { p50: round(percentile(samples, 50), 1), p95: round(percentile(samples, 95), 1) };
}

/** From the start of a server process until /readyz answers 200 with every follower of the log at lag 0. */
async function readyAfter(start: () => Promise<ChildServer>): Promise<{ server: ChildServer; ms: number }> {
  const began = performance.now();
  const server = await start();
  const deadline = began + 30 * 60_000;
  for (;;) {
    if (performance.now() > deadline) throw new Error('The followers did not catch up within 30 minutes');
    const answer = await call<Readiness | null>(server.url, null, 'GET', '/readyz');
    const followers = (answer.body?.followers ?? []).filter((f) => f.position !== null);
    if (answer.status === 200 && followers.length > 0 && followers.every((f) => f.lag === 0)) break;
    await sleep(50);
  }
  return { server, ms: performance.now() - began };
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** The position 10,000 events before the head, then the median time of reading the 10,000 events after it. */
async function recentFeedRead(context: OpenedContext): Promise<number> {
  const row = (
    await context.pool.query<{ tx: string; position: string }>(
      `select transaction_id::text as tx, position::text from events order by transaction_id desc, position desc offset 10000 limit 1`,
    )
  ).rows[0]!;
  const from: Position = { commit: BigInt(row.tx), prepare: BigInt(row.position) };
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const began = performance.now();
    let read = 0;
    let at = from;
    while (read < 10_000) {
      const page = await context.store.readAll(at, 1000);
      if (page.length === 0) break;
      read += page.length;
      at = page[page.length - 1]!.position;
    }
    samples.push(performance.now() - began);
  }
  return percentile(samples, 50);
}

/**
 * npm run bench -- --only history (docs/decisions/bounded-restart.md): at each size, the bench's generated history
 * appended with the product stopped, the read models rebuilt, the product started (first start), restarted (a plain
 * restart, its RSS once ready), rebuilt live while it runs and started again; then appends and a read of the last
 * 10,000 events on that database.
 */
export async function measureHistorySize(options: {
  context: OpenedContext;
  databaseUrl: string;
  start: () => Promise<ChildServer>;
  events: number;
  appendSeconds: number;
  log: (line: string) => void;
}): Promise<HistorySize> {
  const { context, log } = options;
  let began = performance.now();
  // With what the product writes after each agreement (the deal opened, its illustration), as bench:backup's history
  // has: without it the first start opens and illustrates every generated deal, which is no restart's cost.
  const appended = await generateEvents(context.pool, context.store, options.events, 8, productWork(context.pool, context.store));
  await productFollowersAtHead(context.pool, context.store);
  const generate = (performance.now() - began) / 1000;
  log(`  ${appended.toLocaleString('en-GB')} events generated in ${generate.toFixed(0)} s`);
  began = performance.now();
  await liveRebuild(context.pool, context.store);
  const rebuild = (performance.now() - began) / 1000;
  log(`  read models rebuilt in ${rebuild.toFixed(0)} s`);

  const first = await readyAfter(options.start);
  log(`  first start: every follower at lag 0 in ${first.ms.toFixed(0)} ms`);
  await first.server.close();
  const restart = await readyAfter(options.start);
  const rss = await rssMb(restart.server.pid);
  log(`  restart: ready in ${restart.ms.toFixed(0)} ms, RSS ${rss.toFixed(0)} MB`);
  await liveRebuild(context.pool, context.store);
  await restart.server.close();
  const afterRebuild = await readyAfter(options.start);
  log(`  start after a live rebuild: ready in ${afterRebuild.ms.toFixed(0)} ms`);
  const scrub = await scrubSteps(context, afterRebuild.server.url);
  log(`  history scrub step on 2,000 events: p50 ${scrub.p50} ms, p95 ${scrub.p95} ms`);
  await afterRebuild.server.close();

  const append = await measureAppend(context.store, { writers: 8, seconds: options.appendSeconds });
  const feed = await recentFeedRead(context);
  const size = Number(
    (await context.pool.query<{ bytes: string }>('select pg_database_size(current_database())::text as bytes')).rows[0]!.bytes,
  );
  return {
    events: appended,
    database_mb: round(size / 1024 / 1024, 0),
    generate_s: round(generate, 1),
    rebuild_s: round(rebuild, 1),
    first_start_ready_ms: round(first.ms, 0),
    restart_ready_ms: round(restart.ms, 0),
    restart_rss_mb: round(rss, 0),
    start_after_live_rebuild_ready_ms: round(afterRebuild.ms, 0),
    ...append,
    recent_feed_read_ms: round(feed, 1),
    history_scrub_step_ms: scrub,
  };
}
