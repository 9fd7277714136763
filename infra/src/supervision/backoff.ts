import type { BackoffPolicy } from '@pf/events';

/** A failed follower's waits (backoffDelay of @pf/events): 0.1 to 0.2 s at first, at most 5 s. */
export const FOLLOWER_BACKOFF: BackoffPolicy = { baseMs: 200, maxMs: 5000 };
