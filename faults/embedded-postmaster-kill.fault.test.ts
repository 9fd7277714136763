import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { embeddedDatabaseUrl, freePort } from '@pf/infra/embedded';
import { ApiClient } from '@pf/single-node/testing/api-client';
import { expectEveryAcknowledgedOnce, expectPushedOnce } from './lib/check';
import { embeddedDataDir, embeddedNodeEnv, postmasterPid } from './lib/env';
import { CommandLoad, ReadinessWatch, untilCaughtUp, untilReady } from './lib/load';
import { LiveSocket } from './lib/live-socket';
import { ENTRIES, startService, type ServiceProcess } from './lib/processes';
import { waitFor } from './lib/wait';
import type { AgentView } from '@pf/events';

/**
 * The single node on its embedded PostgreSQL (no DATABASE_URL), in a data directory of this test's own: the
 * postmaster is killed under load, and the node starts it again by itself (docs/operations/embedded-database.md).
 */
let dir: string;
let node: ServiceProcess;
const GIVE_UP_SECONDS = 4;

beforeAll(async () => {
  dir = await embeddedDataDir('pf-faults-embedded-');
  node = await startService(ENTRIES.singleNode, await freePort(), embeddedNodeEnv(dir, GIVE_UP_SECONDS));
  await untilReady(node.url);
});
afterAll(async () => {
  await node?.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
});

/** waitFor, failing with what the node wrote. */
const until = <T>(what: string, check: () => Promise<T | null>, timeoutMs?: number): Promise<T> =>
  waitFor(what, check, timeoutMs).catch((error: Error) => {
    throw new Error(`${error.message}\n${node.output()}`);
  });

/** From `since` until a new write is acknowledged and read back through x-after-position. */
async function untilWriteReadBack(client: ApiClient, since: number): Promise<number> {
  let i = 0;
  return until('a fresh write read back', async () => {
    const created = await client.post<AgentView>('/api/agents', { name: `recovery probe ${i++}`, type: 'borrower' }).catch(() => null);
    if (created?.status !== 201) return null;
    const read = await client.get<AgentView[]>('/api/agents').catch(() => null);
    return read?.status === 200 && read.body.some((agent) => agent.id === created.body.id) ? Date.now() - since : null;
  });
}

it('answers 503 while its embedded PostgreSQL is down after a SIGKILL under load, then serves again by itself with nothing acknowledged lost or doubled', async () => {
  const writers = await Promise.all([0, 1, 2].map(() => ApiClient.signIn(node.url)));
  const prober = await ApiClient.signIn(node.url);
  const socket = new LiveSocket(() => node.url.replace('http', 'ws') + '/ws', { cookie: writers[0]!.cookie, origin: node.url });
  await socket.ready();
  const readiness = new ReadinessWatch(() => node.url);
  const load = new CommandLoad(() => writers, 'postmaster');
  load.start();
  await load.untilAcknowledged(30);

  const oldPid = postmasterPid(dir);
  const killed = Date.now();
  process.kill(oldPid, 'SIGKILL');
  await load.untilAnswered('503');
  const recoveryMs = await untilWriteReadBack(prober, killed);
  const restarted = await until('the new postmaster', async () => {
    const pid = postmasterPid(dir);
    return pid !== oldPid ? pid : null;
  });
  console.log(
    `[faults] embedded postmaster SIGKILL under load: a fresh write was acknowledged and read back ${recoveryMs} ms after the kill (new postmaster ${restarted})`,
  );

  // The load runs on for a while on the restarted server before it stops.
  await load.untilAcknowledged(15);
  await load.stop();
  const ready = await untilCaughtUp(node.url, 30_000);
  await readiness.stop();

  // Readiness said why meanwhile; every follower runs again.
  expect(
    readiness.seen.some((entry) => entry.status === 503 && entry.message?.includes('the embedded PostgreSQL is being started again')),
    JSON.stringify(readiness.seen.filter((entry) => entry.status !== 200).slice(0, 5)),
  ).toBe(true);
  expect(ready.followers.map((follower) => follower.state)).not.toContain('failing');

  // Commands during the outage answered 503 with Retry-After, never 500, and the process never went away.
  expect(load.statuses.get('503')).toBeGreaterThan(0);
  expect([...load.statuses.keys()].filter((status) => status !== '201' && status !== '503')).toEqual([]);
  expect(node.child.exitCode).toBeNull();

  const databaseUrl = embeddedDatabaseUrl(dir);
  for (const [index, writer] of writers.entries()) await expectEveryAcknowledgedOnce(load.of(index), writer, databaseUrl);
  await socket.untilPushed(load.of(0).acknowledged.values());
  expectPushedOnce(socket.agentPushes(), load.of(0));
  socket.close();
});

it('fails /healthz (so a supervisor restarts the process) when its embedded PostgreSQL cannot be started again, and passes once it can', async () => {
  // A data directory PostgreSQL will not start on: the version file is moved away, then back.
  const versionFile = path.join(dir, 'postgres', 'PG_VERSION');
  await rename(versionFile, `${versionFile}.away`);
  const killed = Date.now();
  process.kill(postmasterPid(dir), 'SIGKILL');

  // Readiness says why meanwhile: first that the server stopped, then what keeps it from starting.
  const readyzMeanwhile = await until('/readyz naming what keeps the server from starting', async () => {
    const response = await fetch(`${node.url}/readyz`);
    const body = (await response.json()) as { message?: string };
    return response.status === 503 &&
      body.message?.includes('the embedded PostgreSQL is being started again (') &&
      body.message.includes('not a PostgreSQL data directory')
      ? body.message
      : null;
  });
  const failing = await until('/healthz failing', async () => {
    const response = await fetch(`${node.url}/healthz`);
    return response.status === 503 ? { at: Date.now(), body: (await response.json()) as { status: string; message: string } } : null;
  });
  expect(failing.at - killed).toBeGreaterThanOrEqual(GIVE_UP_SECONDS * 1000);
  expect(failing.body.status).toBe('failing');
  expect(failing.body.message).toMatch(
    /^Not live: the embedded PostgreSQL could not be started again for \d+ s: .*is not a PostgreSQL data directory; nothing in it was touched/,
  );
  expect(readyzMeanwhile).toMatch(/not a PostgreSQL data directory/);

  await rename(`${versionFile}.away`, versionFile);
  const back = Date.now();
  await until('/healthz passing again', async () => ((await fetch(`${node.url}/healthz`)).status === 200 ? true : null));
  await untilReady(node.url);
  console.log(
    `[faults] embedded PostgreSQL kept from starting: /healthz failed ${failing.at - killed} ms after the kill (give-up ${GIVE_UP_SECONDS} s); ready again ${Date.now() - back} ms after the data directory was usable`,
  );
  const client = await ApiClient.signIn(node.url);
  expect((await client.post('/api/agents', { name: 'after the outage', type: 'borrower' })).status).toBe(201);
});
