import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandMigrations } from '@pf/command-service';
import { runTournament } from '@pf/command-service/bench';
import { createLogger, openServiceContext, parseConfig, type OpenedContext } from '@pf/infra';
import { queryMigrations } from '@pf/query-service';
import { singleNodeEnv, startChild } from './lib/children';
import { openDatabaseServer } from './lib/database';
import { markdownTable } from './lib/report';
import { benchUser, call, expectStatus } from './lib/session';
import type { AgentView } from '@pf/events';
import { round } from './lib/stats';
import { measureApiRead } from './scenarios/api-read';
import { measureAutomationMoves } from './scenarios/automation';
import { measureMatching } from './scenarios/matching';
import { measureAppend } from './scenarios/append';
import { measureConsole } from './scenarios/console';
import { measureHistorySize, type HistorySize } from './scenarios/history';
import { measureAgainstEmmett } from './scenarios/emmett';
import { LARGE_BOOK_LIMITS, measureLargeBook, seedLargeBook } from './scenarios/large-book';
import { measureReplay } from './scenarios/replay';
import { measureRoundtrips } from './scenarios/roundtrip';
import { measureTracingCost } from './scenarios/tracing';
import { measureWsPush } from './scenarios/ws-push';

/** npm run bench [-- --quick]: every figure of bench/README.md in one run on this machine. */
const quick = process.argv.includes('--quick');
/** `--only roundtrip,append`: just those scenarios (api, roundtrip, tracing, ws, console, book, append, emmett, replay, automation, matching, negotiation). */
const onlyArgument = process.argv.indexOf('--only');
const only = onlyArgument === -1 ? null : new Set((process.argv[onlyArgument + 1] ?? '').split(','));
const wanted = (scenario: string) => only === null || only.has(scenario);
const counts = quick
  ? { seconds: 3, sockets: 1000, messages: 10, small: 1000, large: 20_000, statsRequests: 100, lcpRuns: 2, pairs: 300 }
  : { seconds: 10, sockets: 1000, messages: 40, small: 1000, large: 200_000, statsRequests: 300, lcpRuns: 5, pairs: 2000 };
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'console/dist');
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const began = performance.now();
/** The machine's load when the run began (1, 5 and 15 minutes): a shared machine moves every absolute figure. */
const loadBefore = os.loadavg().map((value) => round(value, 2));

if (!existsSync(path.join(dist, 'index.html'))) {
  log('building the console (console/dist is missing)');
  execSync('npm run build -w console', { cwd: root, stdio: 'inherit' });
}

const server = await openDatabaseServer(process.env.DATABASE_URL);
const postgresVersion = await server.version();
const openContext = (url: string) =>
  openServiceContext(parseConfig({ DATABASE_URL: url, AUTOMATION: 'off' }), createLogger('silent', 'bench'), url, [
    ...commandMigrations,
    ...queryMigrations,
  ]);
const results: Record<string, unknown> = {};
let context: OpenedContext | null = null;
try {
  // The API, the round trips, the sockets and the console, on one product database.
  const apiDatabase = await server.createDatabase('api');
  const product = await startChild('single-node', singleNodeEnv(apiDatabase));
  context = await openContext(apiDatabase);
  const reader = await benchUser(context.sessions);
  let position: string | null = null;
  for (let i = 0; i < 50; i++) {
    const created = expectStatus(
      await call(product.url, reader, 'POST', '/api/agents', {
        name: `Lender ${i + 1}`,
        type: 'lender',
        description: 'Residential mortgages up to 85% loan to value',
        criteria: { interestRateMin: '3.9%', loanTermMax: '30 years' },
      }),
      201,
      'create agent',
    );
    position = created.position;
  }
  const agents = expectStatus(await call<AgentView[]>(product.url, reader, 'GET', '/api/agents', undefined, position), 200, 'list agents');
  if (agents.body.length !== 50) throw new Error(`Expected 50 agents, got ${agents.body.length}`);
  const agentsFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'pf-bench-')), 'agents.json');
  await writeFile(agentsFile, JSON.stringify(agents.body));
  const baseline = await startChild('baseline', { DATABASE_URL: apiDatabase, AGENTS_JSON_FILE: agentsFile });

  if (wanted('api')) {
    log('api_read_ratio');
    Object.assign(
      results,
      await measureApiRead({
        productUrl: product.url,
        cookie: reader.cookie,
        baselineUrl: baseline.url,
        connections: 10,
        seconds: counts.seconds,
      }),
    );
  }
  if (wanted('roundtrip')) {
    log('command_roundtrip');
    // Three repetitions in the run; the headline is their median ratio, each repetition reported beside it.
    const runs = [];
    for (let repetition = 0; repetition < 3; repetition++) {
      runs.push(
        await measureRoundtrips({
          productUrl: product.url,
          baselineUrl: baseline.url,
          pool: context.pool,
          store: context.store,
          sessions: context.sessions,
          clients: 50,
          seconds: counts.seconds,
        }),
      );
    }
    const median = [...runs].sort((a, b) => a.command_roundtrip_ratio - b.command_roundtrip_ratio)[1]!;
    Object.assign(results, median, {
      command_roundtrip_ratio_runs: runs.map((run) => run.command_roundtrip_ratio),
      command_roundtrip_runs: runs,
    });
  }
  if (wanted('tracing')) {
    log('tracing cost (OTLP to a local sink, against off)');
    Object.assign(
      results,
      await measureTracingCost({
        databaseUrl: apiDatabase,
        untracedUrl: product.url,
        baselineUrl: baseline.url,
        pool: context.pool,
        store: context.store,
        sessions: context.sessions,
        clients: 50,
        seconds: counts.seconds,
        sockets: 200,
        messages: counts.messages,
      }),
    );
  }
  await baseline.close();
  const watcher = await benchUser(context.sessions);
  if (wanted('ws')) {
    log(`ws_push (${counts.sockets} sockets)`);
    Object.assign(
      results,
      await measureWsPush({ productUrl: product.url, user: watcher, sockets: counts.sockets, messages: counts.messages }),
    );
  }
  if (wanted('console')) {
    log('console');
    Object.assign(results, await measureConsole({ productUrl: product.url, dist, user: watcher, runs: counts.lcpRuns }));
  }
  await product.close();
  await context.close();
  context = null;

  if (wanted('book')) {
    // 10,000 agents and 10,000 conversations in one firm, every screen measured in Chromium (large-book.ts).
    const size = quick ? 2_000 : 10_000;
    log(`large book (${size.toLocaleString('en-GB')} agents, ${size.toLocaleString('en-GB')} conversations)`);
    const bookDatabase = await server.createDatabase('book');
    context = await openContext(bookDatabase);
    const owner = await benchUser(context.sessions);
    const { firstConversation } = await seedLargeBook(context.store, context.pool, owner, { agents: size, conversations: size });
    const book = await startChild('single-node', singleNodeEnv(bookDatabase));
    try {
      // Until the read models hold the whole book.
      for (let tries = 0; ; tries++) {
        const page = await call<{ total: number }>(book.url, owner, 'GET', '/api/conversations/page?limit=1');
        if (page.status === 200 && page.body.total === size) break;
        if (tries > 600) throw new Error(`the read models never held the book: ${JSON.stringify(page.body).slice(0, 200)}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const routes = [
        '/dashboard',
        '/agents',
        '/conversations',
        `/conversations/${firstConversation}`,
        `/conversations/${firstConversation}/history`,
        '/matching',
        '/deals',
        '/documents',
        '/analytics',
        '/market',
        '/notifications',
        '/settings',
      ];
      const screens = await measureLargeBook({
        productUrl: book.url,
        user: owner,
        routes,
        onScreen: (screen) =>
          log(
            `  ${screen.within ? 'ok  ' : 'OVER'} ${screen.route}: ${screen.ms === null ? 'not drawn in 30 s' : `${screen.ms} ms`}, ${screen.domNodes} elements, ${screen.heapMb} MB`,
          ),
      });
      results.large_book = { agents: size, conversations: size, limits: LARGE_BOOK_LIMITS, screens };
      results.large_book_screens_within = screens.filter((screen) => screen.within).length;
    } finally {
      await book.close();
      await context.close();
      context = null;
    }
  }

  if (wanted('append')) {
    log('append_events_per_s');
    context = await openContext(await server.createDatabase('append'));
    Object.assign(results, await measureAppend(context.store, { writers: 8, seconds: counts.seconds }));
    await context.close();
    context = null;
  }

  if (wanted('emmett')) {
    log("ours beside Emmett's PostgreSQL event store");
    Object.assign(
      results,
      await measureAgainstEmmett({
        ourUrl: await server.createDatabase('ours'),
        emmettUrl: await server.createDatabase('emmett'),
        seconds: Math.max(2, counts.seconds / 2),
      }),
    );
  }

  if (wanted('replay')) {
    log(`rebuild and stats (${counts.small.toLocaleString('en-GB')} → ${counts.large.toLocaleString('en-GB')} events)`);
    const replayDatabase = await server.createDatabase('replay');
    context = await openContext(replayDatabase);
    Object.assign(
      results,
      await measureReplay({
        context,
        start: () => startChild('single-node', singleNodeEnv(replayDatabase)),
        small: counts.small,
        large: counts.large,
        requests: counts.statsRequests,
      }),
    );
    await context.close();
    context = null;
  }

  if (only?.has('history')) {
    // Restart, memory, appends and recent reads at two sizes of history (bench/scenarios/history.ts); only when asked
    // for: at 2,000,000 events it takes the better part of an hour on two cores.
    const sizes = (process.env.BENCH_HISTORY_SIZES ?? (quick ? '10000,200000' : '100000,2000000')).split(',').map(Number);
    const measured: HistorySize[] = [];
    for (const events of sizes) {
      log(`history at ${events.toLocaleString('en-GB')} events`);
      const database = await server.createDatabase(`history_${events}`);
      context = await openContext(database);
      measured.push(
        await measureHistorySize({
          context,
          databaseUrl: database,
          start: () => startChild('single-node', singleNodeEnv(database)),
          events,
          appendSeconds: counts.seconds / 2,
          log,
        }),
      );
      await context.close();
      context = null;
      results.history = measured;
      log(`  ${JSON.stringify(measured[measured.length - 1])}`);
    }
    const [small, large] = [measured[0]!, measured[measured.length - 1]!];
    const ratio = (a: number, b: number) => round(a / b, 3);
    Object.assign(results, {
      history_restart_ready_ms: measured.map((m) => m.restart_ready_ms),
      history_restart_ready_ratio: ratio(large.restart_ready_ms, small.restart_ready_ms),
      history_restart_rss_mb: measured.map((m) => m.restart_rss_mb),
      history_restart_rss_ratio: ratio(large.restart_rss_mb, small.restart_rss_mb),
      history_first_start_after_rebuild_ms: measured.map((m) => m.first_start_ready_ms),
      history_first_start_after_rebuild_vs_restart: measured.map((m) => ratio(m.first_start_ready_ms, m.restart_ready_ms)),
      history_start_after_rebuild_ms: measured.map((m) => m.start_after_live_rebuild_ready_ms),
      history_start_after_rebuild_vs_restart: measured.map((m) => ratio(m.start_after_live_rebuild_ready_ms, m.restart_ready_ms)),
      history_append_batch10_ratio: ratio(large.append_events_per_s_batch10, small.append_events_per_s_batch10),
      history_append_batch1_ratio: ratio(large.append_events_per_s_batch1, small.append_events_per_s_batch1),
      history_recent_feed_read_ratio: ratio(small.recent_feed_read_ms, large.recent_feed_read_ms),
    });
  }

  if (wanted('automation')) {
    log('automation_moves_per_s (16 users press Seed Demo Data at once)');
    const database = await server.createDatabase('automation');
    context = await openContext(database);
    const env = { ...singleNodeEnv(database), AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0' };
    Object.assign(
      results,
      await measureAutomationMoves({
        start: () => startChild('single-node', env),
        pool: context.pool,
        sessions: context.sessions,
        users: 16,
      }),
    );
    await context.close();
    context = null;
  }

  if (wanted('matching')) {
    log('matching_ms_at_10k (a new borrower, 10,000 lenders stored)');
    const database = await server.createDatabase('matching');
    context = await openContext(database);
    const env = { ...singleNodeEnv(database), AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '60000' };
    Object.assign(
      results,
      await measureMatching({
        start: () => startChild('single-node', env),
        pool: context.pool,
        store: context.store,
        sessions: context.sessions,
        lenders: 10_000,
      }),
    );
    await context.close();
    context = null;
  }

  if (wanted('negotiation') || wanted('automation')) {
    log('negotiations_per_s');
    const engine = runTournament({ pairs: counts.pairs, seed: 1 });
    results.negotiations_per_s = round(engine.negotiationsPerSecond, 0);
    results.engine_moves_per_s = round(engine.movesPerSecond, 0);
  }
} finally {
  await context?.close();
  await server.close();
}

const machine = {
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  memoryGiB: round(os.totalmem() / 1024 ** 3, 1),
  node: process.version,
  postgres: `${postgresVersion} (${server.kind === 'embedded' ? 'embedded' : 'DATABASE_URL'})`,
  loadBefore,
  loadAfter: os.loadavg().map((value) => round(value, 2)),
};
const report = {
  date: new Date().toISOString(),
  quick,
  only: only ? [...only] : null,
  seconds: round((performance.now() - began) / 1000, 1),
  machine,
  results,
};
await writeFile(path.join(root, 'bench/results.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`\n${markdownTable(results)}\n\n${JSON.stringify(machine)}; ${report.seconds} s${quick ? ' (quick)' : ''}\n`);
process.exit(0);
