import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventMetadata } from '@pf/events';
import { metrics, secondsSince } from './metrics';
import { batchSpan, tracingOn } from './tracing';

/**
 * The follower a piece of work belongs to: the supervisor starts each run inside it, so the subscription the run
 * opens (and its loop, however it is woken) knows whose batches it hands over, without every follower saying so.
 */
const scope = new AsyncLocalStorage<string>();

export function inFollowerScope<T>(name: string, work: () => T): T {
  return scope.run(name, work);
}

/** Hands a batch to a follower's handler, timed by follower (follower_batch_duration_seconds). */
export async function handBatch<Recorded extends { readonly metadata: EventMetadata }>(
  batch: readonly Recorded[],
  handler: (batch: readonly Recorded[]) => Promise<void>,
): Promise<void> {
  const follower = scope.getStore() ?? 'unnamed';
  const span = tracingOn()
    ? batchSpan(
        follower,
        batch.map((event) => event.metadata.traceparent),
      )
    : undefined;
  span?.setAttributes({ follower, 'event_store.events': batch.length });
  const began = performance.now();
  try {
    await handler(batch);
  } finally {
    span?.end();
  }
  metrics.batchDuration.observe({ follower }, secondsSince(began));
  metrics.batchEvents.inc({ follower }, batch.length);
}
