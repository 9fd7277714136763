import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { commandMigrations } from '@pf/command-service';
import { createLogger, openServiceContext, parseConfig } from '@pf/infra';
import { startEmbeddedPostgres } from '@pf/infra/embedded';
import { liveRebuild, queryMigrations } from '@pf/query-service';
import { appendUserHistory, EVENTS_PER_USER, generateEvents, reserveIds } from './lib/generate';
import { benchUser } from './lib/session';
import { percentile, round } from './lib/stats';

/**
 * npm run bench:rebuild [-- --runs 3 --events 200000 --dir /tmp/pf-rebuild-timing]: the rebuild alone, timed the way
 * the full bench times it (`liveRebuild` over the stored log with the product stopped, the first rebuild of a fresh
 * process), several times over the same events, with the CPU each side spent: Node's (the rebuilding process) and
 * PostgreSQL's (every server process), and the WAL written. The events are generated once into a template database
 * under `--dir` (kept between invocations), and each run rebuilds a fresh copy of it, so runs compare code, not
 * data. `--statements` writes every row through the read models' statements (`copyRows: false`), to compare with the
 * rows copied in; `--batch <events>` and `--lanes <n>` change the rebuild's batch size and lanes; `--profile <dir>`
 * writes a CPU profile of each rebuilding process. A tool for working on the rebuild
 * (docs/decisions/live-rebuild.md); `npm run bench` stays the record.
 */
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    events: { type: 'string', default: '200000' },
    dir: { type: 'string', default: path.join(os.tmpdir(), 'pf-rebuild-timing') },
    child: { type: 'string' },
    only: { type: 'string' },
    batch: { type: 'string' },
    lanes: { type: 'string' },
    profile: { type: 'string' },
    statements: { type: 'boolean', default: false },
    'node-option': { type: 'string', multiple: true },
  },
});
for (const option of ['runs', 'events', 'batch', 'lanes'] as const) {
  const value = values[option];
  if (value !== undefined && !/^[1-9]\d*$/.test(value)) throw new Error(`--${option} takes a whole number above 0, not "${value}"`);
}
const log = (line: string) => process.stderr.write(`[rebuild-timing] ${line}\n`);
const migrations = [...commandMigrations, ...queryMigrations];
const open = (url: string) =>
  openServiceContext(parseConfig({ DATABASE_URL: url, AUTOMATION: 'off' }), createLogger('silent', 'bench'), url, migrations);

/**
 * A process's /proc stat fields after "pid (comm) " (state is field 0, the parent 1, utime 11, stime 12, cutime 13,
 * cstime 14; times in clock ticks of 1/100 s), or null once it has gone.
 */
function statOf(pid: string | number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return null;
  }
}

const seconds = (fields: string[], ...indexes: number[]) => indexes.reduce((sum, index) => sum + Number(fields[index]), 0) / 100;

/** One rebuild as printed: its time and rate, each side's CPU, and the WAL written (with the full-page images among it). */
interface TimedRun {
  seconds: number;
  eventsPerSecond: number;
  nodeCpu: number;
  postgresCpu: number;
  walMb: number;
  walFullPages: number;
}

/** Every PostgreSQL server process's CPU so far: the postmaster with the backends it has reaped, and those still running. */
function postgresCpu(postmaster: number): number {
  const own = statOf(postmaster);
  let total = own ? seconds(own, 11, 12, 13, 14) : 0;
  for (const entry of readdirSync('/proc')) {
    // A backend gone meanwhile has its time in the postmaster's reaped children.
    const fields = /^\d+$/.test(entry) ? statOf(entry) : null;
    if (fields && Number(fields[1]) === postmaster) total += seconds(fields, 11, 12);
  }
  return total;
}

if (values.child) {
  // One rebuild in a fresh process, as `npm run rebuild` and the full bench run it.
  const context = await open(values.child);
  const before = process.cpuUsage();
  const started = performance.now();
  // When each phase began, in seconds from the start (building ends when the last batch has committed).
  const phases: Record<string, number> = {};
  const result = await liveRebuild(context.pool, context.store, {
    ...(values.only ? { only: values.only.split(',') } : {}),
    ...(values.batch ? { batchSize: Number(values.batch) } : {}),
    ...(values.lanes ? { lanes: Number(values.lanes) } : {}),
    copyRows: !values.statements,
    onProgress: (progress) => {
      const at = round((performance.now() - started) / 1000, 2);
      phases[progress.phase] ??= at;
      // The last batch's commit: from there to switching, the indexes left out and the analyses.
      if (progress.phase === 'building' && progress.done > 0) phases['caught up'] = at;
    },
  });
  const took = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(before);
  await context.close();
  process.stdout.write(`${JSON.stringify({ applied: result.applied, seconds: took, nodeCpu: (cpu.user + cpu.system) / 1e6, phases })}\n`);
} else {
  const dir = values.dir;
  await mkdir(dir, { recursive: true });
  // As root, PostgreSQL runs as a "postgres" user, which must be able to enter the directory.
  await chmod(dir, 0o755);
  const embedded = await startEmbeddedPostgres(dir);
  const events = Number(values.events);
  const template = `pf_rebuild_template_${events}`;
  const admin = new pg.Client({ connectionString: embedded.url });
  await admin.connect();
  const urlOf = (database: string) => Object.assign(new URL(embedded.url), { pathname: `/${database}` }).toString();
  const postmaster = Number(readFileSync(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  try {
    const has = await admin.query('select 1 from pg_database where datname = $1', [template]);
    if (has.rowCount === 0) {
      log(`generating ${events.toLocaleString('en-GB')} events into ${template} (once; kept under ${dir})`);
      await admin.query(`create database ${template}`);
      const context = await open(urlOf(template));
      const user = await benchUser(context.sessions);
      await appendUserHistory(context.store, await reserveIds(context.pool, 1), user.id, 0);
      await generateEvents(context.pool, context.store, events - EVENTS_PER_USER);
      await context.close();
    }
    const script = fileURLToPath(import.meta.url);
    const runs: TimedRun[] = [];
    // The server's WAL so far (this embedded server serves the runs alone): its bytes, and the full-page images among them.
    const wal = async () =>
      (await admin.query<{ bytes: string; pages: string }>('select wal_bytes::text as bytes, wal_fpi::text as pages from pg_stat_wal'))
        .rows[0]!;
    for (let run = 1; run <= Number(values.runs); run += 1) {
      const database = `pf_rebuild_run_${run}`;
      await admin.query(`drop database if exists ${database}`);
      await admin.query(`create database ${database} template ${template}`);
      await admin.query('checkpoint');
      const cpuBefore = postgresCpu(postmaster);
      const walBefore = await wal();
      const child = spawn(
        process.execPath,
        [
          ...(values['node-option'] ?? []),
          ...(values.profile ? ['--cpu-prof', '--cpu-prof-dir', values.profile] : []),
          '--import',
          'tsx',
          script,
          '--child',
          urlOf(database),
          ...(values.only ? ['--only', values.only] : []),
          ...(values.batch ? ['--batch', values.batch] : []),
          ...(values.lanes ? ['--lanes', values.lanes] : []),
          ...(values.statements ? ['--statements'] : []),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      if (code !== 0) throw new Error(`The rebuild exited with ${code}`);
      const lines = output.trim().split('\n');
      // What the rebuilding process printed besides its result (--node-option=--trace-gc, say).
      if (lines.length > 1) process.stderr.write(`${lines.slice(0, -1).join('\n')}\n`);
      const result = JSON.parse(lines.at(-1)!) as { applied: number; seconds: number; nodeCpu: number; phases: Record<string, number> };
      const walAfter = await wal();
      const line = {
        seconds: round(result.seconds, 2),
        eventsPerSecond: round(result.applied / result.seconds, 0),
        nodeCpu: round(result.nodeCpu, 2),
        postgresCpu: round(postgresCpu(postmaster) - cpuBefore, 2),
        walMb: round((Number(walAfter.bytes) - Number(walBefore.bytes)) / 1e6, 1),
        walFullPages: Number(walAfter.pages) - Number(walBefore.pages),
      };
      runs.push(line);
      log(
        `run ${run}: ${result.applied} events in ${line.seconds} s (${line.eventsPerSecond}/s); Node CPU ${line.nodeCpu} s, PostgreSQL CPU ${line.postgresCpu} s; WAL ${line.walMb} MB (${line.walFullPages} full-page images); phases began at ${JSON.stringify(result.phases)}`,
      );
      await admin.query(`drop database ${database}`);
    }
    process.stdout.write(
      `${JSON.stringify({
        load: os.loadavg().map((v) => round(v, 2)),
        medianEventsPerSecond: percentile(
          runs.map((r) => r.eventsPerSecond),
          50,
        ),
        runs,
      })}\n`,
    );
  } finally {
    await admin.end();
    await embedded.stop();
  }
}
