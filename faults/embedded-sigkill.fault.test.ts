import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { embeddedDatabaseUrl, freePort } from '@pf/infra/embedded';
import { ApiClient } from '@pf/single-node/testing/api-client';
import { expectEveryAcknowledgedOnce } from './lib/check';
import { embeddedDataDir, embeddedNodeEnv, postmasterPid } from './lib/env';
import { CommandLoad, untilCaughtUpWithStore, untilReady } from './lib/load';
import { ENTRIES, startService, type ServiceProcess } from './lib/processes';

/**
 * `npm start`, kill -9 of the node, `npm start` again on the same data directory, with the embedded default:
 * the PostgreSQL server the killed node left running is stopped by the new start, which then serves every
 * earlier write (docs/operations/embedded-database.md).
 */
let dir: string;
let node: ServiceProcess;
let port: number;

beforeAll(async () => {
  dir = await embeddedDataDir('pf-faults-embedded-kill-');
  port = await freePort();
  node = await startService(ENTRIES.singleNode, port, embeddedNodeEnv(dir));
  await untilReady(node.url);
});
afterAll(async () => {
  await node?.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return false;
  }
};

it('starts again on the same data directory after a SIGKILL of the node under load, stopping the PostgreSQL server it left, with nothing acknowledged lost or doubled', async () => {
  const writers = await Promise.all([0, 1, 2].map(() => ApiClient.signIn(node.url)));
  const load = new CommandLoad(() => writers, 'node-killed');
  load.start();
  await load.untilAcknowledged(30);

  const orphan = postmasterPid(dir);
  await node.kill('SIGKILL');
  // The killed node could not stop its server: it runs on, orphaned, holding the data directory.
  expect(alive(orphan)).toBe(true);
  // Commands sent to the dead process get no answer.
  await load.untilAnswered('network');
  await load.stop();

  const restarting = Date.now();
  node = await startService(ENTRIES.singleNode, port, embeddedNodeEnv(dir));
  const live = Date.now();
  const ready = await untilCaughtUpWithStore(node.url, embeddedDatabaseUrl(dir), 60_000);
  const stopMs = /"stopMs":(\d+)/.exec(node.output())?.[1];
  console.log(
    `[faults] node SIGKILL on the embedded default: the plain restart answered ${live - restarting} ms after it was started (of which ${stopMs} ms stopping the left-over postmaster), and was ready with every follower caught up ${Date.now() - live} ms later`,
  );
  expect(alive(orphan)).toBe(false);
  expect(postmasterPid(dir)).not.toBe(orphan);
  expect(node.output()).toContain('left running by an earlier run was stopped');
  expect(ready.followers.every((follower) => follower.state === 'running' || follower.state === 'standby')).toBe(true);

  // Nothing answered 5xx; the requests in flight at the kill got no answer.
  expect([...load.statuses.keys()].filter((status) => status !== '201' && status !== 'network')).toEqual([]);

  // Sessions live in PostgreSQL: the same cookies read on, and every acknowledged agent is there exactly once.
  const databaseUrl = embeddedDatabaseUrl(dir);
  for (const [index, writer] of writers.entries()) await expectEveryAcknowledgedOnce(load.of(index), writer, databaseUrl);
  expect((await writers[0]!.post('/api/agents', { name: 'after the restart', type: 'borrower' })).status).toBe(201);
});

it('refuses, in one line, a second start on a data directory a running node serves, and leaves that node serving', async () => {
  const { spawnSync } = await import('node:child_process');
  const root = path.resolve(import.meta.dirname, '..');
  const second = spawnSync(process.execPath, ['--import', 'tsx', ENTRIES.singleNode], {
    cwd: root,
    env: { ...process.env, ...embeddedNodeEnv(dir), PORT: String(await freePort()), HOST: '127.0.0.1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(second.status).toBe(1);
  const lines = second.stderr.split('\n').filter((line) => line.trim() && !line.startsWith('{'));
  expect(lines).toEqual([
    expect.stringMatching(
      /^Could not start: The data directory .* is in use by a running copy of the product \(process \d+\); stop that one first/,
    ),
  ]);
  expect(second.stderr).not.toMatch(/triggerUncaughtException|at .*\.ts:\d+/);
  const client = await ApiClient.signIn(node.url);
  expect((await client.get('/api/agents')).status).toBe(200);
});
