import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@pf/infra/embedded';

/**
 * A PostgreSQL server of the fault test's own (the embedded binaries, on a free port, in a temporary
 * directory), so stopping it disturbs nothing else on the machine. It starts again on the same port
 * with the same files, as a restarted production server would.
 */
export interface PrivateDatabase {
  readonly url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server for good and deletes its files. */
  destroy(): Promise<void>;
}

export async function startPrivateDatabase(): Promise<PrivateDatabase> {
  // Under /tmp, whose parents the embedded server's "postgres" user can traverse.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pf-faults-pg-'));
  await chmod(dir, 0o755);
  let server: EmbeddedDatabase | null = await startEmbeddedPostgres(dir);
  const { url, port } = server;
  return {
    url,
    async stop() {
      await server?.stop();
      server = null;
    },
    async start() {
      if (!server) server = await startEmbeddedPostgres(dir, () => undefined, port);
    },
    async destroy() {
      await server?.stop();
      server = null;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
