import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AgentView } from '@pf/events';
import { archiveNow } from '@pf/infra/backup';
import { embeddedDatabaseUrl, freePort } from '@pf/infra/embedded';
import { ApiClient } from '@pf/single-node/testing/api-client';
import { embeddedDataDir, embeddedNodeEnv } from './lib/env';
import { CommandLoad, untilReady } from './lib/load';
import { ENTRIES, startService, type ServiceProcess } from './lib/processes';
import { waitFor } from './lib/wait';

/**
 * The disk lost under load (docs/operations/backups.md): the single node on the embedded default backs up by
 * itself; under a steady command load its data directory is deleted; `npm run restore -- --to latest` builds,
 * verifies and puts back a data directory from BACKUP_DIR; the product started on it has every command
 * acknowledged before the last archived WAL exactly once. Prints the recovery point and the restore's time.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
let dir: string;
let dataDir: string;
let env: Record<string, string>;
let node: ServiceProcess;
let port: number;

interface Ready {
  backup?: { lastBaseBackupAt: string | null; lastArchivedWal: string | null; warnings: string[] };
}

beforeAll(async () => {
  dir = await embeddedDataDir('pf-faults-backup-');
  dataDir = path.join(dir, 'data');
  // The backups beside the data directory, as by default; the WAL archived every second while written.
  env = { ...embeddedNodeEnv(dataDir, 5), BACKUP_DIR: path.join(dir, 'data-backups'), BACKUP_ARCHIVE_TIMEOUT_SECONDS: '1' };
  port = await freePort();
  node = await startService(ENTRIES.singleNode, port, env);
  await untilReady(node.url);
  await waitFor(
    'the first base backup',
    async () => ((await (await fetch(`${node.url}/readyz`)).json()) as Ready).backup?.lastBaseBackupAt ?? null,
  );
});
afterAll(async () => {
  await node?.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
});

function restore(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/single-node/src/backup/restore-main.ts', '--to', 'latest'], {
      cwd: ROOT,
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

it('brings the product back with npm run restore -- --to latest after its data directory is deleted under load, every command acknowledged before the last archived WAL there exactly once', async () => {
  const writers = await Promise.all([0, 1, 2].map(() => ApiClient.signIn(node.url)));
  const load = new CommandLoad(() => writers, 'disk-lost');
  load.start();
  await load.untilAcknowledged(30);

  // Every command acknowledged before the switch is in WAL that is archived once archiveNow returns.
  const beforeSwitch = new Map(load.acknowledged);
  await archiveNow(embeddedDatabaseUrl(dataDir));
  await load.untilAcknowledged(10);

  // The disk lost, with the load still running.
  const lostAt = Date.now();
  // The server goes on writing into it meanwhile: a folder it fills again is removed again.
  await rm(dataDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  const gone = await waitFor(
    '/readyz saying the database is gone',
    async () => {
      const response = await fetch(`${node.url}/readyz`).catch(() => null);
      const body = response ? ((await response.json()) as { message?: string }) : null;
      return body?.message?.includes('is gone') ? body.message : null;
    },
    120_000,
  );
  expect(gone).toMatch(/npm run restore -- --to latest/);

  // The operator's part: stop the product, restore, start it again. The load keeps sending meanwhile.
  await node.kill('SIGTERM');
  const restoring = Date.now();
  const restored = await restore();
  const restoreMs = Date.now() - restoring;
  expect(restored.output).not.toMatch(/restore failed/);
  expect(restored.code).toBe(0);
  expect(restored.output).toContain('every chain is intact');
  expect(restored.output).toMatch(/Verified: \d+ events in \d+ streams/);
  node = await startService(ENTRIES.singleNode, port, env);
  await untilReady(node.url);
  const readyAt = Date.now();
  await load.untilAcknowledged(10);
  await load.stop();

  const client = new pg.Client({ connectionString: embeddedDatabaseUrl(dataDir) });
  await client.connect();
  let stored: Map<string, number>;
  try {
    const { rows } = await client.query<{ name: string; n: number }>(
      `select data->>'name' as name, count(*)::int as n from events where type = 'AgentCreated' group by 1`,
    );
    stored = new Map(rows.map((row) => [row.name, row.n]));
  } finally {
    await client.end();
  }
  const listed = new Map<string, number[]>();
  for (const writer of writers) {
    const answer = await writer.get<AgentView[]>('/api/agents');
    expect(answer.status).toBe(200);
    for (const agent of answer.body) listed.set(agent.name, [...(listed.get(agent.name) ?? []), agent.id]);
  }
  // Acknowledged before the archived point: there, once, with the id it was answered with.
  expect([...beforeSwitch].filter(([name, id]) => listed.get(name)?.length !== 1 || listed.get(name)?.[0] !== id)).toEqual([]);
  expect(
    [...stored].filter(([, n]) => n > 1),
    'agents created twice in the event store',
  ).toEqual([]);
  expect(
    [...listed].filter(([, ids]) => ids.length > 1),
    'agents listed twice',
  ).toEqual([]);
  expect(
    [...listed.keys()].filter((name) => !load.sent.has(name)),
    'agents nobody created',
  ).toEqual([]);
  // Acknowledged by the product started on the restored data: there.
  const afterRestart = [...load.acknowledgedAt].filter(([, at]) => at > readyAt).map(([name]) => name);
  expect(afterRestart.filter((name) => !listed.has(name))).toEqual([]);

  // The recovery point: acknowledged before the disk was lost but not restored.
  // The recovery point: acknowledged before the disk was lost but not restored (and, apart, those the server still
  // acknowledged after the deletion, into files already gone).
  const lost = [...load.acknowledgedAt].filter(([name, at]) => at < lostAt && !listed.has(name));
  const lostAfter = [...load.acknowledgedAt].filter(([name, at]) => at >= lostAt && at < restoring && !listed.has(name));
  const firstLost = Math.min(...lost.map(([, at]) => at));
  console.log(
    `[faults] data directory deleted under load: npm run restore -- --to latest took ${(restoreMs / 1000).toFixed(1)} s, the product was ready on it ${((readyAt - restoring) / 1000).toFixed(1)} s after the restore began; recovery point: ${lost.length} commands acknowledged before the deletion lost${lost.length > 0 ? `, those of its last ${((lostAt - firstLost) / 1000).toFixed(1)} s` : ''} (archive_timeout 1 s), and ${lostAfter.length} acknowledged after it into files already deleted`,
  );
});
