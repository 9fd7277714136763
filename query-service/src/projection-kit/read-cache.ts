import { comparePositions, type Position } from '@pf/events';
import { shareAnswer } from '@pf/infra';
import type { ReadModelProgress } from './progress';

const MAX_ENTRIES = 5000;

/**
 * Answers kept per user and URL, valid while the read models stand at the position they were read at:
 * any batch the projector applies moves the position and so retires every entry. A read that names
 * x-after-position has already waited for that position, so it never gets an answer older than its write.
 */
export class ReadCache {
  private readonly entries = new Map<string, { at: Position; body: unknown }>();
  /** The position every kept entry was read at (entries read at an older one can never be served again). */
  private heldAt: Position | null = null;
  /**
   * The projector's run the kept entries were read in (ReadModelProgress.generation). A projector that starts
   * again may start behind the position the entries were read at (a database that lost its last batches), and
   * an answer read meanwhile would otherwise stay "current" until the position passes that point again.
   */
  private generation = 0;

  constructor(private readonly progress: ReadModelProgress) {}

  async read<T>(userId: string, url: string, compute: () => Promise<T>): Promise<T> {
    const key = `${userId} ${url}`;
    // Taken before reading: the tables already hold everything up to it (the projector moves it after committing).
    const at = this.progress.position;
    const generation = this.progress.generation;
    if (generation !== this.generation) this.forget(generation);
    const hit = this.entries.get(key);
    if (hit && comparePositions(hit.at, at) === 0) return hit.body as T;
    const body = await compute();
    // The projector started again while this was read: the answer may come from tables it is still refilling.
    if (this.progress.generation !== generation) return body;
    // The read models only move forward, so answers read at an older position are dead: they leave memory
    // as soon as one at a newer position arrives (the soak found every user's last answers kept, stale, for
    // good, growing with the history they list), and an answer older than those held is not kept at all.
    const order = this.heldAt === null ? 1 : comparePositions(at, this.heldAt);
    if (order < 0) return body;
    if (order > 0) {
      this.entries.clear();
      this.heldAt = at;
    }
    this.entries.delete(key);
    // Served again as it is while kept, so the HTTP shell serialises it once (callers never change it).
    this.entries.set(key, { at, body: shareAnswer(body) });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return body;
  }

  private forget(generation: number): void {
    this.entries.clear();
    this.heldAt = null;
    this.generation = generation;
  }

  /** How many answers are held (for tests). */
  get size(): number {
    return this.entries.size;
  }
}
