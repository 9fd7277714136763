import { comparePositions, type Position } from '@pf/events';
import type { BatchHandler, RecordedEvent, SubscribeOptions, Subscription } from './port';

interface Source {
  after: Position;
  handler: BatchHandler;
  options: SubscribeOptions;
  read(after: Position, limit: number): Promise<RecordedEvent[]>;
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
  let wakeUp: (() => void) | null = null;
  let pendingWake = false;
  const unregister = source.onWake(() => {
    pendingWake = true;
    wakeUp?.();
  });

  let markCaughtUp: () => void = () => undefined;
  const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (pendingWake || stopped) return resolve();
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wakeUp = null;
    });

  /** Waits ms, whatever is appended meanwhile; only closing ends it early. */
  let interrupt: (() => void) | null = null;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const timer = setTimeout(resolve, ms);
      interrupt = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      interrupt = null;
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
        await source.handler(batch);
        position = batch[batch.length - 1]!.position;
        if (comparePositions(position, target) >= 0) markCaughtUp();
        // At the head (a batch not cut short by its size), let the next one gather for the rest of the interval.
        const spare = (source.options.minIntervalMs ?? 0) - (Date.now() - began);
        if (spare > 0 && batch.length < batchSize) await pause(spare);
      } else {
        markCaughtUp();
        if (woken) retries = 0;
        await sleep(RETRY_AFTER_WAKE_MS[retries++] ?? POLL_MS);
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
      wakeUp?.();
      interrupt?.();
      await done.catch(() => undefined);
    },
  };
}
