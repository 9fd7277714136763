import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DataDirectoryInUse, EmbeddedStartFailed } from './errors';

export const STOP_TIMEOUT_MS = 30_000;

function processState(pid: number): 'alive' | 'gone' {
  if (os.platform() === 'linux') {
    try {
      // Field 3 is the state; a zombie has exited and only waits to be reaped.
      const statLine = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return statLine.slice(statLine.lastIndexOf(')') + 2).startsWith('Z') ? 'gone' : 'alive';
    } catch {
      return 'gone';
    }
  }
  try {
    process.kill(pid, 0);
    return 'alive';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? 'alive' : 'gone';
  }
}

function commandLine(pid: number): string {
  try {
    if (os.platform() === 'linux') return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' });
  } catch {
    return '';
  }
}

function parentOf(pid: number): number | null {
  try {
    if (os.platform() === 'linux') {
      const statLine = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(statLine.slice(statLine.lastIndexOf(')') + 2).split(' ')[1]);
    }
    return Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).trim());
  } catch {
    return null;
  }
}

async function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/**
 * A postmaster left running on this data directory by an earlier run (the node process was killed with
 * SIGKILL, say) is stopped, with PostgreSQL's own fast shutdown (every committed transaction is on disk
 * already; shutting down only writes a checkpoint). One whose parent is a live node process belongs to
 * another running copy of the product: that is refused with DataDirectoryInUse. A postmaster.pid naming a
 * dead process, or one that is not PostgreSQL, is PostgreSQL's own to clean up, as its crash recovery does.
 */
export async function stopLeftoverPostmaster(dataDir: string, log: (line: string) => void = () => undefined): Promise<'none' | 'stopped'> {
  const databaseDir = path.resolve(dataDir, 'postgres');
  let pid: number;
  try {
    pid = Number((await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  } catch {
    return 'none';
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || processState(pid) === 'gone') return 'none';
  if (!/postgres/.test(commandLine(pid))) {
    // The process id was reused after a restart of the machine: no postmaster holds this directory.
    await unlink(path.join(databaseDir, 'postmaster.pid')).catch(() => undefined);
    return 'none';
  }
  const parent = parentOf(pid);
  if (parent !== null && parent > 1 && (parent === process.pid || (processState(parent) === 'alive' && /node/.test(commandLine(parent))))) {
    throw new DataDirectoryInUse(path.resolve(dataDir), parent);
  }
  log(`stopping the PostgreSQL server (process ${pid}) left running on ${databaseDir} by an earlier run`);
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EPERM') {
        throw new EmbeddedStartFailed(
          `A PostgreSQL server (process ${pid}) left running on ${databaseDir} belongs to another user and cannot be stopped from here`,
        );
      }
    }
  };
  signal('SIGINT');
  if (await until(() => processState(pid) === 'gone', STOP_TIMEOUT_MS)) return 'stopped';
  // Immediate shutdown: recovery replays the write-ahead log at the next start, as after a crash.
  signal('SIGQUIT');
  if (await until(() => processState(pid) === 'gone', 10_000)) return 'stopped';
  throw new EmbeddedStartFailed(`The PostgreSQL server (process ${pid}) left running on ${databaseDir} by an earlier run did not stop`);
}
