import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { freePort } from '@pf/infra/embedded';
import { ApiClient } from '@pf/single-node/testing/api-client';
import { expectEveryAcknowledgedOnce, expectPushedOnce } from './lib/check';
import { CommandLoad, ReadinessWatch, untilCaughtUp, untilReady } from './lib/load';
import { LiveSocket } from './lib/live-socket';
import { startPrivateDatabase, type PrivateDatabase } from './lib/private-database';
import { ENTRIES, startService, type ServiceProcess } from './lib/processes';
import { singleNodeEnv } from './lib/env';
import type { AgentView } from '@pf/events';

let db: PrivateDatabase;
let node: ServiceProcess;

beforeAll(async () => {
  db = await startPrivateDatabase();
  node = await startService(ENTRIES.singleNode, await freePort(), singleNodeEnv(db.url));
  await untilReady(node.url);
});
afterAll(async () => {
  await node?.kill('SIGTERM');
  await db?.destroy();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** From the database's return until a new write is read back through x-after-position. */
async function measureRecovery(client: ApiClient, since: number): Promise<number> {
  let last = '';
  for (let i = 0; ; i++) {
    const created = await client.post<AgentView>('/api/agents', { name: `recovery probe ${i}`, type: 'borrower' }).catch(String);
    last = JSON.stringify(created);
    if (typeof created === 'object' && created.status === 201) {
      const read = await client.get<AgentView[]>('/api/agents').catch(String);
      last = JSON.stringify(read);
      if (typeof read === 'object' && read.status === 200 && read.body.some((agent) => agent.id === created.body.id)) {
        return Date.now() - since;
      }
    }
    if (Date.now() - since > 60_000) {
      const ready = await fetch(`${node.url}/readyz`).then((response) => response.text(), String);
      throw new Error(
        `the read side did not recover within 60 s of the database coming back; last answer ${last}; /readyz ${ready}\n${node.output()}`,
      );
    }
    await sleep(50);
  }
}

it('survives a database restart under a steady command load: nothing acknowledged is lost or doubled, and the read side recovers by itself', async () => {
  const writers = await Promise.all([0, 1, 2].map(() => ApiClient.signIn(node.url)));
  const prober = await ApiClient.signIn(node.url);
  const socket = new LiveSocket(() => node.url.replace('http', 'ws') + '/ws', { cookie: writers[0]!.cookie, origin: node.url });
  await socket.ready();
  const readiness = new ReadinessWatch(() => node.url);
  const load = new CommandLoad(() => writers, 'restart');
  load.start();
  await load.untilAcknowledged(30);

  const down = Date.now();
  await db.stop();
  // Down long enough for commands to be refused and readiness to say so several times.
  await load.untilAnswered('503');
  await readiness.untilSeen(503, down + 300, 6);
  await db.start();
  const back = Date.now();
  const recoveryMs = await measureRecovery(prober, back);
  console.log(`[faults] database restart: the read side answered a fresh write ${recoveryMs} ms after the database came back`);

  // The load runs on for a while after the database came back before it stops.
  await load.untilAcknowledged(15);
  await load.stop();
  const ready = await untilCaughtUp(node.url, 30_000);
  await readiness.stop();

  // Readiness told the truth: 503 while the database was down, 200 once every follower caught up.
  const during = readiness.between(down + 300, back);
  expect(during.length).toBeGreaterThan(5);
  expect(
    during.every((entry) => entry.status === 503),
    JSON.stringify(during),
  ).toBe(true);
  expect(during.some((entry) => entry.message?.includes('database unreachable'))).toBe(true);
  expect(ready.followers.map((follower) => follower.state)).not.toContain('failing');
  expect(ready.followers.map((follower) => follower.name)).toEqual(
    expect.arrayContaining(['read-model projector', 'analytics:daily', 'realtime-gateway', 'process manager: automation']),
  );

  // Commands during the outage answered 503 with Retry-After, never 500.
  expect([...load.statuses.keys()].filter((status) => status !== '201' && status !== '503')).toEqual([]);

  // Read your writes again (reads send x-after-position), with every acknowledged agent there exactly once.
  for (const [index, writer] of writers.entries()) await expectEveryAcknowledgedOnce(load.of(index), writer, db.url);

  // The socket stayed open through the outage; the gateway's follower resumed where it was: no gap, no repeat.
  await socket.untilPushed(load.of(0).acknowledged.values());
  expectPushedOnce(socket.agentPushes(), load.of(0));
  expect(socket.reconnections).toBe(0);
  socket.close();

  // The LISTEN connection that wakes followers is back too.
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  const listening = await admin.query(`select 1 from pg_stat_activity where application_name = 'event-notifier' and query ilike 'listen%'`);
  await admin.end();
  expect(listening.rowCount).toBe(1);
});
