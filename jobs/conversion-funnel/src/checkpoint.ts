import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { emptyFunnel, type FunnelState } from './funnel';

/** What the job keeps between runs: the position it reached and the figures at that position, together. */
export interface Checkpoint {
  readonly position: string | null;
  readonly state: FunnelState;
}

export async function loadCheckpoint(file: string): Promise<Checkpoint> {
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as Checkpoint;
    return { position: saved.position, state: { ...emptyFunnel(), ...saved.state } };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { position: null, state: emptyFunnel() };
    throw new Error(`The checkpoint ${file} cannot be read: ${(error as Error).message}`);
  }
}

/** Written to a temporary file and renamed over the old one, so a crash leaves the old checkpoint or the new, never half. */
export async function saveCheckpoint(file: string, checkpoint: Checkpoint): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(checkpoint));
  await rename(temporary, file);
}
