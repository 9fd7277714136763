import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A service of the product in a process of its own, started as an operator would (node --import tsx <entry>). */
export interface ServiceProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it wrote to stderr and stdout, for a failing test's message. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export const ENTRIES = {
  singleNode: 'infra/single-node/src/main.ts',
  gateway: 'realtime-gateway/src/main.ts',
  commandService: 'command-service/src/main.ts',
  queryService: 'query-service/src/main.ts',
} as const;

export async function startService(entry: string, port: number, env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry)], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited (${child.exitCode}) before answering:\n${output}`);
    const live = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (live) break;
    if (Date.now() > deadline) throw new Error(`${entry} did not answer /healthz within 60 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    output: () => output,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}
