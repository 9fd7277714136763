import { handBatch } from '../observability/follower-scope';
import type { Readable } from 'node:stream';
import { comparePositions, type Position } from '@pf/events';
import type { BatchHandler, StoredEvent, SubscribeOptions, Subscription } from './port';

/** What the adapter hands over: EventStoreDB's live subscription, already opened, as a readable stream. */
interface LiveSource {
  readonly stream: Readable;
  unsubscribe(): Promise<void>;
}

interface Options<Item> {
  after: Position;
  handler: BatchHandler<StoredEvent>;
  options: SubscribeOptions;
  /** The last event a reader can see now: caughtUp resolves once it has been handled. */
  head(): Promise<Position>;
  open(after: Position): LiveSource;
  /** The port's event, or null for an item the port never shows (system and link events). */
  map(item: Item): StoredEvent | null;
}

/**
 * Turns a server-push subscription into the port's batches: the server streams events one by one,
 * the handler gets what has arrived (up to the batch size) and the stream is paused while too much
 * waits, so a slow handler applies back-pressure to the server instead of filling memory.
 */
export function batchedSubscription<Item>(source: Options<Item>): Subscription {
  const batchSize = source.options.batchSize ?? 500;
  const queue: StoredEvent[] = [];
  let position = source.after;
  let stopped = false;
  let failure: Error | null = null;
  let ended = false;
  let live: LiveSource | null = null;
  let wake: (() => void) | null = null;
  const signal = () => wake?.();

  let markCaughtUp: () => void = () => undefined;
  const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));

  const arrived = () =>
    new Promise<void>((resolve) => {
      if (queue.length > 0 || stopped || failure !== null || ended) return resolve();
      wake = resolve;
    }).finally(() => {
      wake = null;
    });

  const run = async () => {
    const target = await source.head();
    if (comparePositions(position, target) >= 0) markCaughtUp();
    if (stopped) return;
    live = source.open(position);
    const stream = live.stream;
    stream.on('data', (item: Item) => {
      const event = source.map(item);
      // A resumed subscription may repeat the event it resumed from; the port's "after" is exclusive.
      if (!event || comparePositions(event.position, position) <= 0) return;
      if (queue.length > 0 && comparePositions(event.position, queue[queue.length - 1]!.position) <= 0) return;
      queue.push(event);
      if (queue.length >= batchSize * 2) stream.pause();
      signal();
    });
    stream.on('error', (error: unknown) => {
      failure = error instanceof Error ? error : new Error(String(error));
      signal();
    });
    stream.on('end', () => {
      ended = true;
      signal();
    });
    while (!stopped) {
      await arrived();
      if (failure !== null) throw failure;
      if (stopped) break;
      if (queue.length === 0) {
        if (ended) throw new Error('The EventStoreDB subscription ended unexpectedly');
        continue;
      }
      const batch = queue.splice(0, batchSize);
      await handBatch(batch, source.handler);
      position = batch[batch.length - 1]!.position;
      if (comparePositions(position, target) >= 0) markCaughtUp();
      if (stream.isPaused() && queue.length < batchSize) stream.resume();
    }
  };

  const done = run()
    .catch((error: unknown) => {
      stopped = true;
      markCaughtUp();
      if (source.options.onError) source.options.onError(error);
      else throw error;
    })
    .finally(() => live?.unsubscribe().catch(() => undefined));

  return {
    caughtUp,
    async close() {
      stopped = true;
      signal();
      await done.catch(() => undefined);
    },
  };
}
