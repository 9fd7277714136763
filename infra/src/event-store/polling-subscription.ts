import { handBatch } from '../observability/follower-scope';
import { comparePositions, type Position } from '@pf/events';
import type { BatchHandler, StoredEvent, SubscribeOptions, Subscription } from './port';

interface Source {
  after: Position;
  handler: BatchHandler<StoredEvent>;
  options: SubscribeOptions;
  read(after: Position, limit: number): Promise<StoredEvent[]>;
  head(): Promise<Position>;
  /** Registers a wake-up (a notification that something was appended); returns the unregister. */
  onWake(listener: () => void): () => void;
}

/** Idle re-read interval: the fallback when a notification is missed or an older transaction commits late. */
const POLL_MS = 250;
/**
 * After a wake-up whose read found nothing, re-read soon: the new event is committed but hidden behind an
 * older transaction still open (pg_snapshot_xmin), which usually ends within milliseconds.
 */
const RETRY_AFTER_WAKE_MS = [2, 4, 8, 12, 16, 16, 16, 16, 16, 16, 24, 32, 48];

/**
 * Catch up, then follow: read a batch, hand it over, repeat; when nothing is new, sleep until a
 * notification or the poll interval, whichever comes first.
 */
export function pollingSubscription(source: Source): Subscription {
  const batchSize = source.options.batchSize ?? 500;
  let position = source.after;
  let stopped = false;
  let pendingWake = false;
  /** Ends the wait in progress early (closing does; an append does when the wait is for one). */
  let endWait: (() => void) | null = null;
  let waitingForAppend = false;
  const unregister = source.onWake(() => {
    pendingWake = true;
    if (waitingForAppend) endWait?.();
  });

  let markCaughtUp: () => void = () => undefined;
  const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));

  /** Waits ms, or until closed; `untilAppended`: or until something is appended (or already was). */
  const wait = (ms: number, untilAppended: boolean) =>
    new Promise<void>((resolve) => {
      if (stopped || (untilAppended && pendingWake)) return resolve();
      const timer = setTimeout(resolve, ms);
      waitingForAppend = untilAppended;
      endWait = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      endWait = null;
    });

  const run = async () => {
    const target = await source.head();
    if (comparePositions(position, target) >= 0) markCaughtUp();
    let retries = RETRY_AFTER_WAKE_MS.length;
    while (!stopped) {
      const woken = pendingWake;
      pendingWake = false;
      const batch = await source.read(position, batchSize);
      if (stopped) break;
      if (batch.length > 0) {
        const began = Date.now();
        retries = RETRY_AFTER_WAKE_MS.length;
        await handBatch(batch, source.handler);
        position = batch[batch.length - 1]!.position;
        if (comparePositions(position, target) >= 0) markCaughtUp();
        // At the head (a batch not cut short by its size), let the next one gather for the rest of the interval.
        const spare = (source.options.minIntervalMs ?? 0) - (Date.now() - began);
        if (spare > 0 && batch.length < batchSize) await wait(spare, false);
      } else {
        markCaughtUp();
        if (woken) retries = 0;
        await wait(RETRY_AFTER_WAKE_MS[retries++] ?? POLL_MS, true);
      }
    }
  };

  const done = run().catch((error: unknown) => {
    stopped = true;
    markCaughtUp();
    if (source.options.onError) source.options.onError(error);
    else throw error;
  });

  return {
    caughtUp,
    async close() {
      stopped = true;
      unregister();
      endWait?.();
      await done.catch(() => undefined);
    },
  };
}
