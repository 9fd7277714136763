/** How long a failed follower waits before its next attempt. */
export interface BackoffPolicy {
  /** The first wait, before jitter. */
  readonly baseMs: number;
  /** No wait is longer than this, however many attempts have failed. */
  readonly maxMs: number;
}

export const FOLLOWER_BACKOFF: BackoffPolicy = { baseMs: 200, maxMs: 5000 };

/**
 * Exponential backoff with "equal jitter": the ceiling doubles per failed attempt up to maxMs, and the wait
 * is drawn from its upper half. Jitter keeps the copies of a service (and the followers of one process) from
 * knocking on a database that has just come back all in the same millisecond; the lower half is cut off so
 * that a run of small random numbers cannot turn the backoff into a busy loop.
 * `attempt` counts failures so far, from 0; `random` returns a number in [0, 1).
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const exponent = Math.min(Math.max(attempt, 0), 30);
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
