import { comparePositions, type Position } from '@pf/events';
import type { ReadModelProgress } from '../projector/progress';

const MAX_ENTRIES = 5000;

/**
 * Answers kept per user and URL, valid while the read models stand at the position they were read at:
 * any batch the projector applies moves the position and so retires every entry. A read that names
 * x-after-position has already waited for that position, so it never gets an answer older than its write.
 */
export class ReadCache {
  private readonly entries = new Map<string, { at: Position; body: unknown }>();

  constructor(private readonly progress: ReadModelProgress) {}

  async read<T>(userId: string, url: string, compute: () => Promise<T>): Promise<T> {
    const key = `${userId} ${url}`;
    // Taken before reading: the tables already hold everything up to it (the projector moves it after committing).
    const at = this.progress.position;
    const hit = this.entries.get(key);
    if (hit && comparePositions(hit.at, at) === 0) return hit.body as T;
    const body = await compute();
    this.entries.delete(key);
    this.entries.set(key, { at, body });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return body;
  }
}
