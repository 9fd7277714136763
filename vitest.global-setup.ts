import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './infra/src/db/embedded';

let embedded: EmbeddedDatabase | null = null;
let dir: string | null = null;

/**
 * Integration tests run against real PostgreSQL: the server in TEST_DATABASE_URL or DATABASE_URL
 * (CI passes the machine's 127.0.0.1:5432), else an embedded server started here for the run.
 */
export async function setup(): Promise<void> {
  const given = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (given) {
    process.env.TEST_DATABASE_URL = given;
    console.log(`[tests] PostgreSQL: ${new URL(given).host} (given)`);
    return;
  }
  // Under /tmp, whose parents the embedded server's "postgres" user can traverse.
  dir = await mkdtemp(path.join(os.tmpdir(), 'pf-test-pg-'));
  const { chmod } = await import('node:fs/promises');
  await chmod(dir, 0o755);
  embedded = await startEmbeddedPostgres(dir);
  process.env.TEST_DATABASE_URL = embedded.url;
  console.log(`[tests] PostgreSQL: embedded at ${new URL(embedded.url).host}`);
}

export async function teardown(): Promise<void> {
  await embedded?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}
