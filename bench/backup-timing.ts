import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { commandMigrations } from '@pf/command-service';
import { createLogger, openServiceContext, parseConfig } from '@pf/infra';
import { archiveNow, backupSettings, prepareBackupDir, serverBackupSettings, takeBaseBackup } from '@pf/infra/backup';
import { startEmbeddedPostgres } from '@pf/infra/embedded';
import { queryMigrations } from '@pf/query-service';
import { startSingleNode, type RunningServer } from '@pf/single-node';
import { comparePositions, formatPosition } from '@pf/events';
import { appendUserHistory, generateEvents, reserveIds } from './lib/generate';
import { productWork } from './lib/product-work';
import { benchUser } from './lib/session';
import { round } from './lib/stats';

/**
 * npm run bench:backup [-- --events 1000000] [-- --ready-minutes 30]: the backup of a history of that many events on
 * the embedded default (docs/operations/backups.md): the base backup's size and time, the archived WAL's size, and a
 * restore's time to ready (`npm run restore -- --to latest`: recovery, the hash chains verified, the read models
 * rebuilt, swapped in; then the product started on it until /readyz answers 200), with how long each follower of
 * the log took to reach the head at that start. The summary line is printed whatever happens after the backup: a
 * start not ready within `--ready-minutes` is recorded as such, with where each follower stood. Everything in a
 * temporary folder, removed after.
 */
const { values } = parseArgs({
  options: { events: { type: 'string', default: '1000000' }, 'ready-minutes': { type: 'string', default: '30' } },
});
const whole = (name: string, value: string) => {
  if (!/^[1-9]\d*$/.test(value)) throw new Error(`--${name} takes a whole number above 0, not "${value}"`);
  return Number(value);
};
const events = whole('events', values.events);
const readyMs = whole('ready-minutes', values['ready-minutes']) * 60_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (line: string) => process.stderr.write(`[bench:backup ${new Date().toISOString()}] ${line}\n`);
const loadAverage = () => os.loadavg().map((value) => round(value, 2));

/**
 * From the product's start until /readyz answers 200 (or `deadline`): the time, and when each follower of the log
 * first stood at the head the store had when the product started (null: not by then).
 */
async function startUntilReady(
  node: RunningServer,
  began: number,
  deadline: number,
): Promise<{ readyS: number | null; followers: Record<string, { at_head_s: number | null; position: string | null; state: string }> }> {
  const head = await node.probe.headPosition();
  const atHead = new Map<string, number>();
  let readyS: number | null = null;
  let lastLine = 0;
  for (;;) {
    const now = performance.now();
    for (const follower of node.probe.followers()) {
      if (!atHead.has(follower.name) && follower.position && comparePositions(follower.position, head) >= 0) {
        atHead.set(follower.name, now);
        log(`  ${follower.name} at the head ${((now - began) / 1000).toFixed(1)} s after the restore began`);
      }
    }
    if (readyS === null && (await fetch(`${node.url}/readyz`)).status === 200) readyS = (now - began) / 1000;
    const statuses = node.probe.followers();
    if (readyS !== null && statuses.every((f) => f.position === null || atHead.has(f.name))) break;
    if (now > deadline) {
      log(
        `  not ready by the deadline: ${statuses.map((f) => `${f.name} ${f.state} at ${f.position ? formatPosition(f.position) : '-'}`).join('; ')}`,
      );
      break;
    }
    if (now - lastLine > 30_000) {
      lastLine = now;
      log(
        `  waiting: ${statuses
          .filter((f) => !atHead.has(f.name))
          .map((f) => `${f.name} at ${f.position ? formatPosition(f.position) : '-'}`)
          .join('; ')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const followers = Object.fromEntries(
    node.probe.followers().map((f) => {
      const reached = atHead.get(f.name);
      return [
        f.name,
        {
          at_head_s: reached === undefined ? null : round((reached - began) / 1000, 1),
          position: f.position ? formatPosition(f.position) : null,
          state: f.state,
        },
      ];
    }),
  );
  return { readyS: readyS === null ? null : round(readyS, 1), followers };
}

async function bytesUnder(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    total += entry.isDirectory() ? await bytesUnder(full) : (await stat(full)).size;
  }
  return total;
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'pf-bench-backup-'));
await chmod(dir, 0o755);
const env = { DATA_DIR: path.join(dir, 'data'), BACKUP_DIR: path.join(dir, 'data-backups'), LOG_LEVEL: 'warn', AUTOMATION: 'off' };
const settings = backupSettings(parseConfig(env))!;
const figures: Record<string, unknown> = { began: new Date().toISOString(), events, load_average_before: loadAverage() };
let output = '';
let failure: unknown = null;
try {
  await prepareBackupDir(settings);
  const server = await startEmbeddedPostgres(env.DATA_DIR, () => undefined, undefined, serverBackupSettings(settings));
  const context = await openServiceContext(parseConfig({ ...env, DATABASE_URL: server.url }), createLogger('silent', 'bench'), server.url, [
    ...commandMigrations,
    ...queryMigrations,
  ]);
  log(`generating ${events.toLocaleString('en-GB')} events`);
  const user = await benchUser(context.sessions);
  // As the product leaves a store it wrote: every agreement's deal opened and illustrated (a restored directory of a
  // store the product did not write would have the deal opener and the illustration maker do that at its first start).
  const afterAgreement = productWork(context.pool, context.store);
  const first = await appendUserHistory(context.store, await reserveIds(context.pool, 1), user.id, 0, afterAgreement);
  await generateEvents(context.pool, context.store, events - first, 8, afterAgreement);
  log('taking a base backup');
  const backup = await takeBaseBackup(context.pool, env.DATA_DIR, settings);
  figures.base_backup_mb = round(backup.bytes / 1e6, 1);
  figures.base_backup_s = round(backup.seconds, 1);
  await archiveNow(server.url);
  await context.close();
  await server.stop();
  figures.archived_wal_mb = round((await bytesUnder(settings.walDir)) / 1e6, 1);
  log(
    `base backup ${String(figures.base_backup_mb)} MB in ${String(figures.base_backup_s)} s; archived WAL ${String(figures.archived_wal_mb)} MB`,
  );

  log('restoring: npm run restore -- --to latest');
  const restoring = performance.now();
  figures.restore_began = new Date().toISOString();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/single-node/src/backup/restore-main.ts', '--to', 'latest'], {
      cwd: root,
      env: { ...process.env, ...env, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // Shown as it comes (a long verification is otherwise silent), and kept for the summary.
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stderr.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`the restore exited ${code}`))));
  });
  figures.recovered_s = Number(/Recovered in ([\d.]+) s/.exec(output)?.[1]);
  figures.restore_verified_s = round((performance.now() - restoring) / 1000, 1);
  log(`restored, verified and swapped in after ${String(figures.restore_verified_s)} s; starting the product on it`);
  const node = await startSingleNode({ ...env, PORT: '0', HOST: '127.0.0.1' });
  try {
    const ready = await startUntilReady(node, restoring, performance.now() + readyMs);
    figures.restore_to_ready_s = ready.readyS;
    figures.followers_at_head_s = ready.followers;
  } finally {
    await node.close();
  }
} catch (error) {
  failure = error;
} finally {
  figures.ended = new Date().toISOString();
  figures.load_average_after = loadAverage();
  if (failure) figures.failed = failure instanceof Error ? failure.message : JSON.stringify(failure);
  process.stdout.write(`${output.trim()}\n${JSON.stringify(figures)}\n`);
  await rm(dir, { recursive: true, force: true });
}
if (failure) process.exitCode = 1;
