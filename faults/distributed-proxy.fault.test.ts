import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '@pf/infra/embedded';
import { ApiClient } from '@pf/single-node/testing/api-client';
import { expectEveryAcknowledgedOnce, expectPushedOnce } from './lib/check';
import { CommandLoad, untilCaughtUp, untilReady } from './lib/load';
import { LiveSocket } from './lib/live-socket';
import { NGINX, startNginx, type Nginx } from './lib/nginx';
import { startPrivateDatabase, type PrivateDatabase } from './lib/private-database';
import { ENTRIES, startService, type ServiceProcess } from './lib/processes';
import { waitFor } from './lib/wait';

/**
 * The distributed topology run as processes, without Docker: two command-service copies, the query-service and
 * two gateway copies behind infra/proxy/nginx.conf (a real nginx with two workers), on a PostgreSQL of the
 * test's own. The automation's leader and a gateway copy are killed with SIGKILL under a command load.
 */
let db: PrivateDatabase;
let proxy: Nginx;
const services = new Map<string, ServiceProcess>();
const ports: Record<string, number> = {};
const NAMES = ['query-service', 'command-service-1', 'command-service-2', 'realtime-gateway-1', 'realtime-gateway-2'] as const;

if (!NGINX) console.log('[faults] distributed proxy SKIPPED: no nginx binary (apt-get install nginx-light)');

beforeAll(async () => {
  if (!NGINX) return;
  db = await startPrivateDatabase();
  for (const name of [...NAMES, 'proxy']) ports[name] = await freePort();
  const proxyUrl = `http://127.0.0.1:${ports.proxy}`;
  // What each service needs without Docker (README, "Running it distributed"): the proxy is the one origin.
  const common = {
    DATABASE_URL: db.url,
    TRUST_PROXY: 'loopback',
    ALLOWED_ORIGINS: proxyUrl,
    PUBLIC_URL: proxyUrl,
    LOG_LEVEL: 'warn',
    AGENT_REPLY_DELAY_MS: '0',
    RATE_LIMIT_PER_MINUTE: '1000000',
    AUTOMATION: 'on',
  };
  // The query-service first: it runs the read side's migrations.
  services.set('query-service', await startService(ENTRIES.queryService, ports['query-service']!, common));
  for (const name of ['command-service-1', 'command-service-2'])
    services.set(name, await startService(ENTRIES.commandService, ports[name]!, common));
  for (const name of ['realtime-gateway-1', 'realtime-gateway-2']) {
    // The gateways send socket commands to the proxy, which spreads them over the command-service copies.
    services.set(name, await startService(ENTRIES.gateway, ports[name]!, { ...common, COMMAND_SERVICE_URL: proxyUrl }));
  }
  proxy = await startNginx(ports.proxy!, Object.fromEntries(NAMES.map((name) => [name, ports[name]!])));
  for (const service of services.values()) await untilReady(service.url);
});
afterAll(async () => {
  for (const service of services.values()) await service.kill('SIGTERM');
  await proxy?.stop();
  await db?.destroy();
});

interface Follower {
  name: string;
  state: string;
}
const followers = async (service: ServiceProcess): Promise<Follower[]> =>
  ((await (await fetch(`${service.url}/readyz`)).json()) as { followers: Follower[] }).followers;
const automationState = async (service: ServiceProcess) =>
  (await followers(service)).find((follower) => follower.name === 'process manager: automation')?.state;

/** Open connections from nginx to a gateway copy's port (the test's own idle keep-alive connections are not nginx's). */
const socketsOn = (port: number) =>
  execFileSync('ss', ['-Htnp', 'state', 'established', `( dport = :${port} )`], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes('"nginx"')).length;

it.skipIf(!NGINX)(
  'hands the automation over and moves sockets to the other gateway when a leader and a gateway copy are killed under load, with every acknowledged command stored once',
  async () => {
    const proxyUrl = proxy.url;
    const writers = await Promise.all([0, 1, 2].map(() => ApiClient.signIn(proxyUrl)));

    // Two sockets: with the upstream state shared by both nginx workers, least_conn puts one on each gateway copy.
    const sockets = [0, 1].map(
      () => new LiveSocket(() => `${proxyUrl.replace('http', 'ws')}/ws`, { cookie: writers[0]!.cookie, origin: proxyUrl }),
    );
    await Promise.all(sockets.map((socket) => socket.ready()));
    await waitFor(
      'both sockets through the proxy',
      () => socketsOn(ports['realtime-gateway-1']!) + socketsOn(ports['realtime-gateway-2']!) === 2,
    );
    expect([socketsOn(ports['realtime-gateway-1']!), socketsOn(ports['realtime-gateway-2']!)]).toEqual([1, 1]);

    const load = new CommandLoad(() => writers, 'distributed');
    load.start();
    await load.untilAcknowledged(30);

    // The automation's leader: the copy whose automation follower runs (the other waits on standby).
    const copies = ['command-service-1', 'command-service-2'].map((name) => ({ name, service: services.get(name)! }));
    const states = await Promise.all(copies.map(({ service }) => automationState(service)));
    expect(states.sort()).toEqual(['running', 'standby']);
    const leaderIndex = (await automationState(copies[0]!.service)) === 'running' ? 0 : 1;
    const leader = copies[leaderIndex]!;
    const other = copies[1 - leaderIndex]!;

    const killed = Date.now();
    await leader.service.kill('SIGKILL');
    services.delete(leader.name);
    await waitFor(
      `${other.name} taking the automation over`,
      async () => (await automationState(other.service)) === 'running',
      30_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}:\n${other.service.output()}`);
    });
    const handoverMs = Date.now() - killed;

    const gatewayKilled = Date.now();
    await services.get('realtime-gateway-1')!.kill('SIGKILL');
    services.delete('realtime-gateway-1');
    await waitFor(
      'a socket reconnecting after its gateway copy was killed',
      () => sockets.some((socket) => socket.reconnections > 0),
      30_000,
    );
    const reconnectMs = Date.now() - gatewayKilled;
    console.log(
      `[faults] distributed: ${other.name} took the automation over ${handoverMs} ms after ${leader.name} (the leader) was killed; a socket of the killed gateway copy reconnected through the proxy in ${reconnectMs} ms`,
    );

    // The load runs on for a while through the remaining copies before it stops.
    await load.untilAcknowledged(15);
    await load.stop();
    await untilCaughtUp(services.get('query-service')!.url, 30_000);

    // Through the proxy: 201, or the services' JSON 503 with Retry-After for a command cut off with its copy; never 502.
    expect([...load.statuses.keys()].filter((status) => status !== '201' && status !== '503')).toEqual([]);

    for (const [index, writer] of writers.entries()) await expectEveryAcknowledgedOnce(load.of(index), writer, db.url);
    for (const socket of sockets) {
      await socket.untilPushed(load.of(0).acknowledged.values());
      expectPushedOnce(socket.agentPushes(), load.of(0));
      socket.close();
    }

    // With every copy of a service down, the proxy answers the services' JSON error, not nginx's HTML page.
    await services.get('query-service')!.kill('SIGKILL');
    services.delete('query-service');
    const down = await fetch(`${proxyUrl}/api/agents`, { headers: { cookie: writers[0]!.cookie } });
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('2');
    expect(await down.json()).toEqual({ message: 'The service cannot be reached just now; try again in a few seconds' });
  },
);
