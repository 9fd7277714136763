import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { testServerEnv } from './testing/server-env';

/**
 * A real Prometheus scrapes the node's /metrics (docs/operations/observability.md): the series it stores move with
 * the requests the test makes. Prometheus is Debian's package, which `.ci/run` installs; on a machine without it
 * this suite says so and is skipped.
 */
const PROMETHEUS = '/usr/bin/prometheus';
const available = existsSync(PROMETHEUS);
if (!available) console.warn(`[prometheus] skipped: ${PROMETHEUS} is not installed (apt-get install -y prometheus)`);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

describe.skipIf(!available)('Prometheus scraping the single node', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let prometheus: ChildProcess | undefined;
  let dir: string;
  let api: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(testServerEnv(database.url));
    await server.caughtUp;
    dir = await mkdtemp(path.join(os.tmpdir(), 'pf-prometheus-'));
    const target = new URL(server.url).host.replace('localhost', '127.0.0.1');
    await writeFile(
      path.join(dir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        'scrape_configs:',
        '  - job_name: property-finance',
        '    metrics_path: /metrics',
        '    static_configs:',
        `      - targets: ['${target}']`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
  });
  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => prometheus!.kill('SIGKILL'), 5_000);
        prometheus!.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        prometheus!.kill('SIGTERM');
      });
    }
    await server?.close();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A PromQL query's single value, or null while Prometheus has none (or is not up yet). */
  const query = async (promql: string): Promise<number | null> => {
    try {
      const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`);
      if (!response.ok) return null;
      const body = (await response.json()) as { data: { result: { value: [number, string] }[] } };
      const value = body.data.result[0]?.value[1];
      return value === undefined ? null : Number(value);
    } catch {
      return null;
    }
  };

  it('stores the node’s series, and the count of agents created moves by the three the test creates', async () => {
    await expect.poll(() => query('up{job="property-finance"}'), { timeout: 60_000, interval: 250 }).toBe(1);
    const created =
      'sum(http_server_request_duration_seconds_count{http_route="/api/agents",http_request_method="POST",http_response_status_code="201"})';
    const before = (await query(created)) ?? 0;
    const alice = await ApiClient.signIn(server.url);
    for (const name of ['Amelia Hart', 'Bilal Shah', 'Chloe Evans']) {
      expect((await alice.post('/api/agents', { name, type: 'borrower' })).status).toBe(201);
    }
    await expect.poll(() => query(created), { timeout: 30_000, interval: 250 }).toBe(before + 3);
    // The followers' lag, as the System screen reads it, is there for the projector.
    await expect
      .poll(() => query('count(follower_lag_events{follower="read-model projector"})'), { timeout: 30_000, interval: 250 })
      .toBeGreaterThan(0);
  }, 120_000);
});
