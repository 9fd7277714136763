import type pg from 'pg';
import { comparePositions, formatPosition, START, type Position } from '@pf/events';
import { loadCheckpoint, NotCaughtUp } from '@pf/infra';

const POLL_MS = 20;

/**
 * How far the read models are: advanced in memory by the local projector, and read from the
 * checkpoint table when another copy of the query-service did the work.
 */
export class ReadModelProgress {
  private current: Position = START;
  private readonly waiters = new Set<() => void>();
  /** How often the local projector started again from the stored checkpoint (restartAt); answers kept by the ReadCache belong to one. */
  private restarts = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly name: string,
  ) {}

  get position(): Position {
    return this.current;
  }

  get generation(): number {
    return this.restarts;
  }

  /**
   * The local projector starts (again) from the stored checkpoint. The read models stand there, which may be
   * behind what this process last saw: the projector commits without waiting for the disk (projector.ts), so a
   * PostgreSQL server that died and came back may have lost its last batches, rows and checkpoint together.
   * Reads then wait until those batches are applied again, rather than being answered from tables that no
   * longer hold them.
   */
  restartAt(position: Position): void {
    this.current = position;
    this.restarts += 1;
    for (const wake of this.waiters) wake();
  }

  advance(position: Position): void {
    if (comparePositions(position, this.current) <= 0) return;
    this.current = position;
    for (const wake of this.waiters) wake();
  }

  /**
   * Resolves once the read models include `target`; NotCaughtUp (503) after `timeoutMs`. The local projector
   * wakes waiters at once as it advances; the checkpoint table is read only when a waiter has waited a poll
   * interval with no local advance (another copy of the query-service may have done the work), and one such
   * read in flight serves every waiter. Reading it on every local advance, once per waiter, made up most of
   * this process's queries under load (50 readers waiting, a batch every few milliseconds).
   */
  async waitFor(target: Position, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (comparePositions(this.current, target) < 0) {
      const left = deadline - Date.now();
      if (left <= 0) throw new NotCaughtUp(formatPosition(target), timeoutMs);
      const timedOut = await new Promise<boolean>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve(false);
        };
        const timer = setTimeout(
          () => {
            this.waiters.delete(wake);
            resolve(true);
          },
          Math.min(POLL_MS * 5, left),
        );
        this.waiters.add(wake);
      });
      if (timedOut && comparePositions(this.current, target) < 0) await this.readCheckpoint();
    }
  }

  private checkpointRead: Promise<void> | null = null;

  /** The stored checkpoint, one read at a time for all waiters. */
  private readCheckpoint(): Promise<void> {
    this.checkpointRead ??= loadCheckpoint(this.pool, this.name)
      .then((position) => this.advance(position))
      .finally(() => {
        this.checkpointRead = null;
      });
    return this.checkpointRead;
  }
}
