import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const consoleDir = path.resolve(here, '..');
export const consoleDist = process.env.E2E_CONSOLE_DIST ?? path.join(consoleDir, 'dist');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** The built console; (re)built here when missing or older than its sources, so the tests never run a stale UI. */
export function ensureConsoleBuilt(): void {
  const built = path.join(consoleDist, 'index.html');
  if (process.env.E2E_CONSOLE_DIST) return;
  if (existsSync(built) && statSync(built).mtimeMs > newestSource(path.join(consoleDir, 'src'))) return;
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: consoleDir, stdio: 'inherit' });
}

export interface E2eServer {
  url: string;
  /** The server's database, for tests that must change stored rows by hand (the tamper check). */
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * The single-node server on a fresh database: a new database on the given PostgreSQL server
 * (TEST_DATABASE_URL or DATABASE_URL), else an embedded PostgreSQL in a temporary directory.
 */
export async function startE2eServer(overrides: Record<string, string> = {}): Promise<E2eServer> {
  const given = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const cleanups: (() => Promise<void>)[] = [];
  let databaseUrl: string;
  if (given) {
    process.env.TEST_DATABASE_URL = given;
    const { createTestDatabase } = await import('@pf/infra/testing');
    const database = await createTestDatabase('pf_e2e');
    cleanups.push(() => database.drop());
    databaseUrl = database.url;
  } else {
    // Under the system temp dir, whose parents the embedded server's "postgres" user can traverse.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pf-e2e-pg-'));
    await chmod(dir, 0o755);
    const { startEmbeddedPostgres } = await import('@pf/infra/embedded');
    const embedded = await startEmbeddedPostgres(dir);
    cleanups.push(async () => {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    });
    databaseUrl = embedded.url;
  }
  const { startSingleNode } = await import('@pf/single-node');
  const server = await startSingleNode({
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    AUTOMATION: 'off',
    CONSOLE_DIST: consoleDist,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    // A browser test clicks faster than a person; the per-minute limits are not what it tests.
    RATE_LIMIT_PER_MINUTE: '100000',
    ...overrides,
  });
  return {
    url: server.url,
    databaseUrl,
    async stop() {
      await server.close();
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
}
