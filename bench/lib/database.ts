import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '@pf/infra/embedded';

/**
 * The PostgreSQL server the benchmarks run on: DATABASE_URL's server if set, else an embedded one in a
 * temporary directory. Each scenario gets a fresh database on it, dropped at the end.
 */
export interface BenchDatabaseServer {
  readonly kind: 'DATABASE_URL' | 'embedded';
  version(): Promise<string>;
  createDatabase(label: string): Promise<string>;
  close(): Promise<void>;
}

export async function openDatabaseServer(databaseUrl: string | undefined): Promise<BenchDatabaseServer> {
  let serverUrl = databaseUrl;
  let stopEmbedded: (() => Promise<void>) | null = null;
  if (!serverUrl) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pf-bench-'));
    // As root, PostgreSQL runs as a "postgres" user, which must be able to enter the directory.
    await chmod(dir, 0o755);
    const embedded = await startEmbeddedPostgres(dir);
    serverUrl = embedded.url;
    stopEmbedded = async () => {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const created: string[] = [];
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    kind: stopEmbedded ? 'embedded' : 'DATABASE_URL',
    version: () => admin(async (client) => (await client.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]!.v),
    async createDatabase(label) {
      const name = `pf_bench_${label}_${randomBytes(4).toString('hex')}`;
      await admin((client) => client.query(`create database ${name}`));
      created.push(name);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async close() {
      for (const name of created) await admin((client) => client.query(`drop database if exists ${name} with (force)`));
      await stopEmbedded?.();
    },
  };
}
