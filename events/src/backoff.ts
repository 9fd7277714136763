/** How long something that failed waits before its next attempt. */
export interface BackoffPolicy {
  /** The first wait's ceiling, before jitter. */
  readonly baseMs: number;
  /** No wait is longer than this, however many attempts have failed. */
  readonly maxMs: number;
}

/**
 * The one backoff of the platform (supervised followers, the negotiator's retries, the Kafka relay, the console's
 * socket): exponential with "equal jitter". The ceiling doubles per failed attempt up to maxMs, and the wait is
 * drawn from its upper half. Jitter keeps the copies of a service (or a person's browser tabs) from knocking on
 * something that has just come back all in the same millisecond; the lower half is cut off so that a run of
 * small random numbers cannot turn the backoff into a busy loop.
 * `attempt` counts failures so far, from 0; `random` returns a number in [0, 1).
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const exponent = Math.min(Math.max(attempt, 0), 30);
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
