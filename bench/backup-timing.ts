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
import { startSingleNode } from '@pf/single-node';
import { appendUserHistory, EVENTS_PER_USER, generateEvents, reserveIds } from './lib/generate';
import { benchUser } from './lib/session';
import { round } from './lib/stats';

/**
 * npm run bench:backup [-- --events 1000000]: the backup of a history of that many events on the embedded default
 * (docs/operations/backups.md): the base backup's size and time, the archived WAL's size, and a restore's time to
 * ready (`npm run restore -- --to latest`: recovery, the hash chains verified, the read models rebuilt, swapped in;
 * then the product started on it until /readyz answers 200). Everything in a temporary folder, removed after.
 */
const { values } = parseArgs({ options: { events: { type: 'string', default: '1000000' } } });
if (!/^[1-9]\d*$/.test(values.events)) throw new Error(`--events takes a whole number above 0, not "${values.events}"`);
const events = Number(values.events);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (line: string) => process.stderr.write(`[bench:backup] ${line}\n`);

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
try {
  await prepareBackupDir(settings);
  const server = await startEmbeddedPostgres(env.DATA_DIR, () => undefined, undefined, serverBackupSettings(settings));
  const context = await openServiceContext(parseConfig({ ...env, DATABASE_URL: server.url }), createLogger('silent', 'bench'), server.url, [
    ...commandMigrations,
    ...queryMigrations,
  ]);
  log(`generating ${events.toLocaleString('en-GB')} events`);
  const user = await benchUser(context.sessions);
  await appendUserHistory(context.store, await reserveIds(context.pool, 1), user.id, 0);
  await generateEvents(context.pool, context.store, events - EVENTS_PER_USER);
  log('taking a base backup');
  const backup = await takeBaseBackup(context.pool, env.DATA_DIR, settings);
  await archiveNow(server.url);
  await context.close();
  await server.stop();
  const walBytes = await bytesUnder(settings.walDir);

  log('restoring: npm run restore -- --to latest');
  const restoring = performance.now();
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/single-node/src/backup/restore-main.ts', '--to', 'latest'], {
      cwd: root,
      env: { ...process.env, ...env, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`the restore exited ${code}:\n${text}`))));
  });
  const restoredMs = performance.now() - restoring;
  const node = await startSingleNode({ ...env, PORT: '0', HOST: '127.0.0.1' });
  await node.caughtUp;
  for (;;) {
    if ((await fetch(`${node.url}/readyz`)).status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const readyMs = performance.now() - restoring;
  await node.close();
  const figures = {
    at: new Date().toISOString(),
    events,
    base_backup_mb: round(backup.bytes / 1e6, 1),
    base_backup_s: round(backup.seconds, 1),
    archived_wal_mb: round(walBytes / 1e6, 1),
    recovered_s: Number(/Recovered in ([\d.]+) s/.exec(output)?.[1]),
    restore_verified_s: round(restoredMs / 1000, 1),
    restore_to_ready_s: round(readyMs / 1000, 1),
    load_average: os.loadavg().map((value) => round(value, 2)),
  };
  process.stdout.write(`${output.trim()}\n${JSON.stringify(figures)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
