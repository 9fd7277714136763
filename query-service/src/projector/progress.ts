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

  constructor(
    private readonly pool: pg.Pool,
    private readonly name: string,
  ) {}

  get position(): Position {
    return this.current;
  }

  advance(position: Position): void {
    if (comparePositions(position, this.current) <= 0) return;
    this.current = position;
    for (const wake of this.waiters) wake();
  }

  /** Resolves once the read models include `target`; NotCaughtUp (503) after `timeoutMs`. */
  async waitFor(target: Position, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (comparePositions(this.current, target) < 0) {
      const left = deadline - Date.now();
      if (left <= 0) throw new NotCaughtUp(formatPosition(target), timeoutMs);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(POLL_MS * 5, left));
        this.waiters.add(wake);
      });
      if (comparePositions(this.current, target) < 0) this.advance(await loadCheckpoint(this.pool, this.name));
    }
  }
}
