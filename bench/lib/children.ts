import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface ChildServer {
  readonly url: string;
  /** The server process's id (its resident memory is read from /proc). */
  readonly pid: number;
  close(): Promise<void>;
}

/** Starts bench/servers/<name>.ts in its own Node process and waits for the URL it listens on. */
export async function startChild(name: 'single-node' | 'baseline', env: Record<string, string>): Promise<ChildServer> {
  const child: ChildProcess = fork(path.resolve(here, '../servers', `${name}.ts`), [], {
    // BENCH_PROFILE=<dir> writes a CPU profile of each server process there (open it in Chrome DevTools).
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`The ${name} server exited (code ${code}) before listening`)));
  });
  return { url, pid: child.pid!, close: () => closeChild(child) };
}

/** Asks a child started here to close, and kills it if it has not exited within 10 s. */
export function closeChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.send('close');
  });
}

/** The product's environment for a benchmark run: quiet logs, no agents, no write limit in the way. */
export function singleNodeEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    AUTOMATION: 'off',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
  };
}
