import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '@pf/infra/embedded';
import { ApiClient } from '@pf/single-node/testing/api-client';
import { expectPushedOnce } from './lib/check';
import { singleNodeEnv } from './lib/env';
import { CommandLoad, ReadinessWatch, untilCaughtUp, untilCaughtUpWithStore, untilReady } from './lib/load';
import { LiveSocket } from './lib/live-socket';
import { startPrivateDatabase, type PrivateDatabase } from './lib/private-database';
import { ENTRIES, startService, type ServiceProcess } from './lib/processes';

let db: PrivateDatabase;
let node: ServiceProcess;
let gateway: ServiceProcess;
let gatewayPort: number;

const gatewayEnv = () => ({ DATABASE_URL: db.url, COMMAND_SERVICE_URL: node.url, LOG_LEVEL: 'warn' });

beforeAll(async () => {
  db = await startPrivateDatabase();
  node = await startService(ENTRIES.singleNode, await freePort(), singleNodeEnv(db.url));
  await untilReady(node.url);
  gatewayPort = await freePort();
  gateway = await startService(ENTRIES.gateway, gatewayPort, gatewayEnv());
  await untilReady(gateway.url);
});
afterAll(async () => {
  await gateway?.kill('SIGTERM');
  await node?.kill('SIGTERM');
  await db?.destroy();
});

it('resumes every subscribed socket with no gap and no repeat when a gateway copy restarts', async () => {
  const writers = await Promise.all([0, 1].map(() => ApiClient.signIn(node.url)));
  const origin = gateway.url;
  const wsUrl = () => `${origin.replace('http', 'ws')}/ws`;
  // Two consoles per user on the gateway copy (sessions are shared through PostgreSQL).
  const sockets = writers.flatMap((writer) => [0, 1].map(() => new LiveSocket(wsUrl, { cookie: writer.cookie, origin })));
  await Promise.all(sockets.map((socket) => socket.ready()));
  const readiness = new ReadinessWatch(() => origin);
  const load = new CommandLoad(() => writers, 'gateway');
  load.start();
  await load.untilAcknowledged(30);

  await gateway.kill('SIGTERM');
  // From the moment the process has exited (a check answered while it shut down may say 503 instead).
  const stopped = Date.now();
  await readiness.untilSeen('down', stopped, 3);
  const restarting = Date.now();
  gateway = await startService(ENTRIES.gateway, gatewayPort, gatewayEnv());
  await untilCaughtUpWithStore(gateway.url, db.url, 60_000);
  // The load runs on for a while on the restarted copy before it stops.
  await load.untilAcknowledged(15);
  await load.stop();
  await untilCaughtUp(gateway.url, 30_000);
  await untilCaughtUp(node.url, 30_000);
  await readiness.untilSeen(200, Date.now(), 1);
  await readiness.stop();
  for (const [index, socket] of sockets.entries()) await socket.untilPushed(load.of(Math.floor(index / 2)).acknowledged.values());

  const during = readiness.within(stopped, restarting);
  expect(during.length).toBeGreaterThan(0);
  expect(
    during.filter((entry) => entry.status !== 'down'),
    'a check answered while the gateway copy was down',
  ).toEqual([]);
  expect(readiness.seen.at(-1)!.status).toBe(200);

  for (const [index, socket] of sockets.entries()) {
    expect(socket.reconnections).toBeGreaterThan(0);
    expectPushedOnce(socket.agentPushes(), load.of(Math.floor(index / 2)));
    expect(socket.chainBreaks(), 'each push names the one before it on its socket').toEqual([]);
    // A socket is told only about its own user's agents.
    const others = load.of(1 - Math.floor(index / 2));
    expect(socket.agentPushes().filter((id) => [...others.acknowledged.values()].includes(id))).toEqual([]);
    socket.close();
  }
});
