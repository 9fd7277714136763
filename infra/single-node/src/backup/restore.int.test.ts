import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { AgentView } from '@pf/events';
import { archiveNow } from '@pf/infra/backup';
import { startSingleNode } from '../server';
import { ApiClient } from '../testing/api-client';

/**
 * A mistaken deletion undone by a point-in-time restore (docs/operations/backups.md "Restoring"): the embedded
 * node backs up by itself, an agent is deleted, `npm run restore -- --to <a moment before>` builds and verifies a
 * new data directory, and the node started on it has the agent again.
 */
const ROOT = path.resolve(import.meta.dirname, '../../../..');
let dir: string;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('restores to a moment before an agent was deleted by mistake, verifying every hash chain, and keeps the data it replaced', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pf-restore-'));
  await chmod(dir, 0o755);
  const dataDir = path.join(dir, 'data');
  const env = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', AUTOMATION: 'off', DATA_DIR: dataDir, DATABASE_URL: undefined };
  let server = await startSingleNode(env);
  // The node takes its first base backup by itself, and says so on /readyz.
  await expect
    .poll(
      async () =>
        ((await (await fetch(`${server.url}/readyz`)).json()) as { backup?: { lastBaseBackupAt: string | null } }).backup?.lastBaseBackupAt,
      {
        timeout: 60_000,
      },
    )
    .toEqual(expect.any(String));

  const client = await ApiClient.signIn(server.url);
  const created = await client.post<AgentView>('/api/agents', { name: 'Pennine Mutual', type: 'lender' });
  expect(created.status).toBe(201);
  const beforeTheMistake = new Date();
  expect((await client.delete(`/api/agents/${created.body.id}`)).status).toBe(200);
  expect((await client.get<AgentView[]>('/api/agents')).body.map((agent) => agent.name)).toEqual([]);
  await archiveNow(server.databaseUrl);
  await server.close();

  const restore = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'infra/single-node/src/backup/restore-main.ts', '--to', beforeTheMistake.toISOString()],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', TEST_DATABASE_URL: '', EVENTSTORE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 180_000,
    },
  );
  expect(restore.stderr).toBe('');
  expect(restore.status).toBe(0);
  expect(restore.stdout).toContain('every chain is intact');
  expect(restore.stdout).toMatch(/Verified: \d+ events in \d+ streams, the newest recorded at /);
  // What stood in DATA_DIR is kept beside it, not overwritten.
  expect(readdirSync(dir).filter((name) => name.startsWith('data.before-restore-'))).toHaveLength(1);
  expect(readdirSync(dir).filter((name) => name.includes('.restoring-'))).toEqual([]);

  server = await startSingleNode(env);
  try {
    const again = new ApiClient(server.url);
    again.cookie = client.cookie;
    await expect
      .poll(async () => (await again.get<AgentView[]>('/api/agents')).body.map((agent) => agent.name))
      .toEqual(['Pennine Mutual']);
  } finally {
    await server.close();
  }
  expect(existsSync(path.join(dir, 'data-backups', 'wal'))).toBe(true);
}, 300_000);
