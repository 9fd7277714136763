import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandMigrations } from '@pf/command-service';
import { openServiceContext, type Config, type Logger } from '@pf/infra';
import { queryMigrations } from '@pf/query-service';
import { liveRebuild } from '@pf/query-service/live-rebuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface RestoredSummary {
  readonly events: number;
  readonly streams: number;
  readonly newestEventAt: Date | null;
}

/**
 * `npm run audit -- verify --all` against the restored server, as an operator would run it: its exit code. Its
 * output goes to a file (writes to a file are synchronous: the CLI's exit cannot cut its last lines off, as it can
 * a pipe's); the per-stream lines are left out of what is printed, the verdict and any BROKEN line kept.
 */
async function verifyHashChains(databaseUrl: string, print: (line: string) => void): Promise<number> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'pf-restore-audit-'));
  const file = path.join(folder, 'audit.txt');
  const out = openSync(file, 'w');
  try {
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'query-service/src/history/audit-main.ts', 'verify', '--all'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl, EVENTSTORE_URL: '' },
        stdio: ['ignore', out, out],
      });
      child.on('error', reject);
      child.on('close', (exit) => resolve(exit ?? 1));
    });
    const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line.trim() && !line.startsWith('intact  '));
    for (const line of lines) print(`  ${line}`);
    return code;
  } finally {
    closeSync(out);
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * Checks a restored database before the product is let onto it (docs/operations/backups.md "Restoring"): every
 * stream's hash chain verified, every read model rebuilt from the events (so none holds a row the events do not
 * give), and a summary. Throws, saying what failed, when it does not verify.
 */
export async function verifyRestored(
  config: Config,
  log: Logger,
  databaseUrl: string,
  print: (line: string) => void,
): Promise<RestoredSummary> {
  print("Verifying every stream's hash chain (npm run audit -- verify --all):");
  const chains = await verifyHashChains(databaseUrl, print);
  if (chains !== 0) throw new Error(`the hash chains do not verify (npm run audit exited ${chains})`);
  const context = await openServiceContext(config, log, databaseUrl, [...commandMigrations, ...queryMigrations]);
  try {
    print('Rebuilding the read models from the events:');
    let lastLine = 0;
    const rebuilt = await liveRebuild(context.pool, context.store, {
      onProgress(progress) {
        if (performance.now() - lastLine < 2000) return;
        lastLine = performance.now();
        print(`  ${progress.phase}: ${progress.done} of ${progress.total} events`);
      },
    });
    print(`  rebuilt in ${rebuilt.seconds.toFixed(1)} s`);
    const { rows } = await context.pool.query<{ events: string; streams: string; newest: Date | null }>(
      'select count(*)::text as events, count(distinct stream_name)::text as streams, max(recorded_at) as newest from events',
    );
    return { events: Number(rows[0]!.events), streams: Number(rows[0]!.streams), newestEventAt: rows[0]!.newest };
  } finally {
    await context.close();
  }
}
