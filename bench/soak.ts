import { fork } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ApiClient } from '@pf/single-node/testing/api-client';
import type { AgentView } from '@pf/events';
import { LiveSocket } from '../faults/lib/live-socket';
import { openDatabaseServer } from './lib/database';

/**
 * npm run soak [-- --minutes 2]: steady load on the single node (commands, reads with x-after-position,
 * sockets that come and go, the automated agents matching and negotiating) for 10 minutes by default,
 * sampling the server's heap and RSS (after a full GC) at the start, at the end and every tenth between.
 * With --heap-snapshots <dir> it also writes a heap snapshot of the server at the first and the last sample
 * and prints which constructors gained the most objects and bytes between the two (to tell a leak from
 * history that grows by design). --cpu-profile <dir> writes a CPU profile of the node for the whole run.
 */
const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    users: { type: 'string', default: '8' },
    'heap-snapshots': { type: 'string' },
    // A CPU profile of the node for the whole run, written into this directory when it exits (node --cpu-prof).
    'cpu-profile': { type: 'string' },
  },
});
const snapshotDir = values['heap-snapshots'] ? path.resolve(values['heap-snapshots']) : undefined;
if (snapshotDir) await mkdir(snapshotDir, { recursive: true });
const minutes = Number(values.minutes);
const users = Number(values.users);
if (!(minutes > 0) || !(users > 0)) throw new Error('--minutes and --users must be positive numbers');

const here = path.dirname(fileURLToPath(import.meta.url));
const databases = await openDatabaseServer(process.env.DATABASE_URL);
const databaseUrl = await databases.createDatabase('soak');
const child = fork(path.join(here, 'servers/soak-node.ts'), [], {
  execArgv: [
    '--import',
    'tsx',
    '--expose-gc',
    ...(values['cpu-profile'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-profile'])}`] : []),
  ],
  env: {
    ...process.env,
    ...(snapshotDir ? { SOAK_HEAP_SNAPSHOTS: snapshotDir } : {}),
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    AUTOMATION: 'on',
    AGENT_REPLY_DELAY_MS: '100',
    LOG_LEVEL: 'error',
    RATE_LIMIT_PER_MINUTE: '100000000',
    // /readyz counts each follower's lag up to this bound: high, so the samples show how far behind one really is.
    READY_MAX_LAG_EVENTS: '20000',
  },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const url = await new Promise<string>((resolve, reject) => {
  child.once('message', (message) => resolve((message as { url: string }).url));
  child.once('exit', (code) => reject(new Error(`the single node exited (code ${code}) before listening`)));
});
const memory = () =>
  new Promise<{ heapUsed: number; rss: number }>((resolve) => {
    const answer = (message: unknown) => {
      const found = (message as { memory?: { heapUsed: number; rss: number } }).memory;
      if (!found) return;
      child.off('message', answer);
      resolve(found);
    };
    child.on('message', answer);
    child.send('memory');
  });

const snapshot = (name: string) =>
  new Promise<string>((resolve) => {
    const answer = (message: unknown) => {
      const file = (message as { snapshot?: string }).snapshot;
      if (!file) return;
      child.off('message', answer);
      resolve(file);
    };
    child.on('message', answer);
    child.send(`snapshot:${name}`);
  });

/** Objects and bytes by constructor (strings, arrays, code and other internals grouped by their type). */
async function census(file: string): Promise<Map<string, { count: number; bytes: number }>> {
  const heap = JSON.parse(await readFile(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = heap.snapshot.meta.node_fields;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field)) as [number, number, number];
  const types = heap.snapshot.meta.node_types[0];
  const found = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < heap.nodes.length; i += fields.length) {
    const type = types[heap.nodes[i + typeAt]!]!;
    const key = ['object', 'closure', 'native'].includes(type) ? `${heap.strings[heap.nodes[i + nameAt]!]} (${type})` : `(${type})`;
    const entry = found.get(key) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += heap.nodes[i + sizeAt]!;
    found.set(key, entry);
  }
  return found;
}

async function printCensusDiff(firstFile: string, lastFile: string): Promise<void> {
  const [before, after] = [await census(firstFile), await census(lastFile)];
  const rows = [...new Set([...before.keys(), ...after.keys()])].map((key) => {
    const a = before.get(key) ?? { count: 0, bytes: 0 };
    const b = after.get(key) ?? { count: 0, bytes: 0 };
    return { key, count: b.count - a.count, bytes: b.bytes - a.bytes, now: b.count };
  });
  rows.sort((x, y) => y.bytes - x.bytes);
  console.log(`[soak] heap snapshots ${firstFile} -> ${lastFile}; growth by constructor (objects, self bytes):`);
  for (const row of rows.slice(0, 30))
    console.log(
      `  ${row.key.slice(0, 70).padEnd(70)} ${String(row.count).padStart(8)} objects (now ${row.now})  ${(row.bytes / 1024).toFixed(0).padStart(8)} KB`,
    );
}

const counts = { commands: 0, reads: 0, failures: 0, reconnects: 0 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const criteria = (i: number) => ({
  propertyValueMin: `£${250 + (i % 5) * 10}k`,
  propertyValueMax: `£${400 + (i % 7) * 10}k`,
  interestRateMin: '3.5%',
  interestRateMax: `${4.5 + (i % 4) * 0.25}%`,
  loanTermMin: '20 years',
  loanTermMax: '30 years',
});

let running = true;
async function user(index: number): Promise<void> {
  const client = await ApiClient.signIn(url);
  let socket = new LiveSocket(() => `${url.replace('http', 'ws')}/ws`, { cookie: client.cookie, origin: url });
  const mine: number[] = [];
  for (let i = 0; running; i++) {
    try {
      // A borrower and a lender in turn, so the matcher opens conversations and the negotiator conducts them;
      // the oldest agents are deleted, so the live set stays about the same size while the history grows.
      const type = i % 2 === 0 ? 'borrower' : 'lender';
      const created = await client.post<AgentView>('/api/agents', { name: `Soak ${index}-${i}`, type, criteria: criteria(i) });
      counts.commands++;
      if (created.status === 201) mine.push(created.body.id);
      else counts.failures++;
      if (mine.length > 6) {
        const removed = await client.delete(`/api/agents/${mine.shift()}`);
        counts.commands++;
        if (removed.status !== 200) counts.failures++;
      }
      for (const path of ['/api/agents', '/api/conversations', '/api/stats']) {
        const read = await client.get(path);
        counts.reads++;
        if (read.status !== 200) counts.failures++;
      }
      // Consoles come and go: a socket is replaced every 40 rounds.
      if (i % 40 === 39) {
        socket.close();
        counts.reconnects++;
        socket = new LiveSocket(() => `${url.replace('http', 'ws')}/ws`, { cookie: client.cookie, origin: url });
      }
    } catch {
      counts.failures++;
    }
    await sleep(250);
  }
  socket.close();
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const samples: { minute: number; heapUsed: number; rss: number; commands: number }[] = [];
/** Each follower's lag in events (from /readyz): a follower falling behind holds a growing backlog in memory. */
const lags = async () => {
  const body = (await fetch(`${url}/readyz`).then(
    (response) => response.json(),
    () => ({}),
  )) as { followers?: { name: string; lag: number | null }[] };
  return (body.followers ?? []).map((follower) => `${follower.name} ${follower.lag ?? '?'}`).join(', ');
};
const sample = async () => {
  const { heapUsed, rss } = await memory();
  const minute = (Date.now() - began) / 60_000;
  samples.push({ minute, heapUsed, rss, commands: counts.commands });
  console.log(
    `[soak] ${minute.toFixed(1)} min: heap ${mb(heapUsed)} MB, RSS ${mb(rss)} MB; ${counts.commands} commands, ${counts.reads} reads, ${counts.failures} failures; lag: ${await lags()}`,
  );
};

const began = Date.now();
const loops = Array.from({ length: users }, (_, index) => user(index));
// Warm-up (JIT, pools, first caches) before the first sample.
await sleep(Math.min(30_000, minutes * 6_000));
await sample();
const firstSnapshot = snapshotDir ? await snapshot('first') : null;
const end = began + minutes * 60_000;
const interval = (end - Date.now()) / 10;
while (Date.now() + interval / 2 < end) {
  await sleep(Math.min(interval, end - Date.now()));
  await sample();
}
const lastSnapshot = snapshotDir ? await snapshot('last') : null;
running = false;
await Promise.all(loops);

const first = samples[0]!;
const last = samples.at(-1)!;
console.log(
  `[soak] ${minutes} min, ${users} users: ${counts.commands} commands, ${counts.reads} reads, ${counts.reconnects} socket replacements, ${counts.failures} failures; ` +
    `heap ${mb(first.heapUsed)} -> ${mb(last.heapUsed)} MB, RSS ${mb(first.rss)} -> ${mb(last.rss)} MB`,
);
if (firstSnapshot && lastSnapshot) await printCensusDiff(firstSnapshot, lastSnapshot);
child.send('close');
await new Promise((resolve) => child.once('exit', resolve));
await databases.close();
