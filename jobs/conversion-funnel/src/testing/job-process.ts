import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Tests only: the repository's root, where the job is started as a person starts it. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The job as a person starts it (npm start -w @pf/conversion-funnel), its output collected line by line. */
export class JobProcess {
  readonly output: string[] = [];
  private readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  private wake: () => void = () => undefined;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'jobs/conversion-funnel/src/main.ts'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffer = '';
    const take = (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      this.output.push(...lines);
      this.wake();
    };
    this.child.stdout!.on('data', take);
    this.child.stderr!.on('data', take);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code) => {
        this.wake();
        resolve(code);
      }),
    );
  }

  /** The reports printed so far, each as { stage: count }. */
  reports(): Record<string, number>[] {
    const reports: Record<string, number>[] = [];
    for (const line of this.output) {
      if (line.startsWith('Conversion funnel at ')) reports.push({});
      const stage = /^ {2}(Borrowers|Matched|Negotiating|Agreed|Completed)\s+(\d+)/.exec(line);
      if (stage && reports.length > 0) reports[reports.length - 1]![stage[1]!] = Number(stage[2]);
    }
    return reports;
  }

  /** Waits (bounded by the test's timeout) until the output satisfies `condition`; fails if the job exits first. */
  async until(condition: () => boolean, what: string): Promise<void> {
    let exited = false;
    void this.exited.then(() => (exited = true));
    while (!condition()) {
      if (exited) throw new Error(`The job exited before ${what}:\n${this.output.join('\n')}`);
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}
