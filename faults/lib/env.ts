import { readFileSync } from 'node:fs';
import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The single node as the fault tests run it: automation on (its follower is supervised too), no reply delay, no write limit. */
export function singleNodeEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    AUTOMATION: 'on',
    AGENT_REPLY_DELAY_MS: '0',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000',
    SESSION_CACHE_MS: '2000',
  };
}

/** The single node on its embedded PostgreSQL (no DATABASE_URL), with its data in `dataDir`. */
export function embeddedNodeEnv(dataDir: string, giveUpSeconds = 30): Record<string, string> {
  // An empty DATABASE_URL counts as unset, whatever the environment of the test run says.
  // Its backups inside the test's own folder, so that removing the folder removes them (docs/operations/backups.md).
  return {
    ...singleNodeEnv(''),
    DATA_DIR: dataDir,
    BACKUP_DIR: path.join(dataDir, 'backups'),
    EMBEDDED_DATABASE_GIVE_UP_SECONDS: String(giveUpSeconds),
  };
}

/** A fresh data directory for an embedded node: under /tmp, whose parents the embedded server's "postgres" user can traverse. */
export async function embeddedDataDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await chmod(dir, 0o755);
  return dir;
}

/** The pid of the embedded PostgreSQL server running on `dataDir` (its postmaster.pid's first line). */
export const postmasterPid = (dataDir: string) =>
  Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
