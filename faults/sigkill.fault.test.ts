import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '@pf/infra/embedded';
import { ApiClient } from '@pf/single-node/testing/api-client';
import { expectEveryAcknowledgedOnce, expectPushedOnce } from './lib/check';
import { singleNodeEnv } from './lib/env';
import { CommandLoad, ReadinessWatch, untilCaughtUp, untilCaughtUpWithStore, untilReady } from './lib/load';
import { LiveSocket } from './lib/live-socket';
import { startPrivateDatabase, type PrivateDatabase } from './lib/private-database';
import { ENTRIES, startService, type ServiceProcess } from './lib/processes';

let db: PrivateDatabase;
let node: ServiceProcess;
let port: number;

beforeAll(async () => {
  db = await startPrivateDatabase();
  port = await freePort();
  node = await startService(ENTRIES.singleNode, port, singleNodeEnv(db.url));
  await untilReady(node.url);
});
afterAll(async () => {
  await node?.kill('SIGTERM');
  await db?.destroy();
});

it('loses nothing acknowledged when the single node is killed with SIGKILL under load and started again', async () => {
  const writers = await Promise.all([0, 1, 2].map(() => ApiClient.signIn(node.url)));
  const url = node.url;
  const socket = new LiveSocket(() => url.replace('http', 'ws') + '/ws', { cookie: writers[0]!.cookie, origin: url });
  await socket.ready();
  const readiness = new ReadinessWatch(() => url);
  const load = new CommandLoad(() => writers, 'killed');
  load.start();
  await load.untilAcknowledged(30);

  const killed = Date.now();
  await node.kill('SIGKILL');
  await readiness.untilSeen('down', killed + 200, 5);
  const restarting = Date.now();
  node = await startService(ENTRIES.singleNode, port, singleNodeEnv(db.url));
  const live = Date.now();
  const ready = await untilCaughtUpWithStore(node.url, db.url, 60_000);
  console.log(
    `[faults] SIGKILL: the new process answered ${live - restarting} ms after it was started, and was ready with every follower caught up ${Date.now() - live} ms later`,
  );
  // The load runs on for a while on the new process before it stops.
  await load.untilAcknowledged(15);
  await load.stop();
  await untilCaughtUp(node.url, 30_000);
  await readiness.stop();

  // While the process was dead nothing answered readiness; once back it answered 200 with every follower running.
  const during = readiness.between(killed + 200, restarting);
  expect(during.length).toBeGreaterThan(3);
  expect(during.every((entry) => entry.status === 'down')).toBe(true);
  expect(readiness.seen.at(-1)!.status).toBe(200);
  expect(ready.followers.every((follower) => follower.state === 'running' || follower.state === 'standby')).toBe(true);

  // Requests in flight at the kill got no answer; none was answered 5xx.
  expect([...load.statuses.keys()].filter((status) => status !== '201' && status !== 'network')).toEqual([]);

  // Sessions live in PostgreSQL: the same cookies read on; every acknowledged agent is there exactly once.
  for (const [index, writer] of writers.entries()) await expectEveryAcknowledgedOnce(load.of(index), writer, db.url);

  // The socket reconnected to the new process and resumed after its last push: no gap, no repeat.
  await socket.untilPushed(load.of(0).acknowledged.values());
  expect(socket.reconnections).toBeGreaterThan(0);
  expectPushedOnce(socket.agentPushes(), load.of(0));
  socket.close();
});
