import type { Producer } from 'kafkajs';
import { backoffDelay, type Position } from '@pf/events';
import type { BatchHandler, EventStore, StoredEvent, Subscription } from '../event-store/port';
import type { CheckpointStore } from '../db/checkpoints';
import { toMessage } from './envelope';

/** The part of the kafkajs producer the relay uses, so tests can stand in for the broker. */
export type EventSender = Pick<Producer, 'send'>;

export interface RelayOptions {
  readonly store: Pick<EventStore<StoredEvent>, 'subscribe'>;
  readonly producer: EventSender;
  readonly topic: string;
  readonly checkpoint: CheckpointStore;
  readonly batchSize?: number;
  /** Wait before re-sending a batch the broker did not acknowledge; grows with the attempt number. */
  readonly retryDelayMs?: (attempt: number) => number;
  readonly onRetry?: (error: unknown, attempt: number) => void;
  /** The subscription stopped (the checkpoint failed to save, or the store failed). */
  readonly onError?: (error: unknown) => void;
  /**
   * The batch as it is to be published: each event with a deleted person's data removed and the fields emptied
   * (docs/decisions/hash-chain.md "Erasure"); absent, as stored. A failure stops the run, as the store's would.
   */
  readonly erase?: Eraser;
}

/** What the relay publishes of a batch, one entry per event, in order. */
export type Eraser = (batch: readonly StoredEvent[]) => Promise<readonly { event: StoredEvent; redacted: readonly string[] }[]>;

export interface Relay extends Subscription {
  /** The position of the last event the broker acknowledged and the checkpoint holds. */
  readonly relayed: () => Position;
}

/** The broker unreachable: waits from 0.125 to 0.25 s at first, at most 30 s (the platform's one backoff). */
const defaultDelay = (attempt: number) => backoffDelay(attempt, { baseMs: 250, maxMs: 30_000 }, Math.random);

/**
 * Publishes every event of the store, in global order, from the relay's checkpoint:
 * one producer.send per batch, re-sent whole until the broker acknowledges it, and only then the
 * checkpoint moves. So no event is lost, and an event reaches the topic twice only when an
 * acknowledgement failed (the broker may have stored the batch before the failure): at-least-once.
 * Per-stream order holds because a stream is one key, so one partition, and with the idempotent
 * producer (one request in flight) kafkajs writes a partition's messages in the order given.
 */
export async function startRelay(options: RelayOptions): Promise<Relay> {
  const delay = options.retryDelayMs ?? defaultDelay;
  let stopped = false;
  let relayed = await options.checkpoint.load();
  let wakeSleeper: (() => void) | null = null;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeSleeper = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (wakeSleeper = null));

  const handler: BatchHandler<StoredEvent> = async (batch) => {
    const published = options.erase ? await options.erase(batch) : batch.map((event) => ({ event, redacted: [] }));
    const messages = published
      .map(({ event, redacted }) => toMessage(event, redacted))
      .map((message) => ({ ...message, headers: { ...message.headers } }));
    for (let attempt = 1; ; attempt++) {
      try {
        // acks -1: every in-sync replica has the batch (the idempotent producer requires it).
        await options.producer.send({ topic: options.topic, messages, acks: -1 });
        break;
      } catch (error) {
        if (stopped) throw error;
        options.onRetry?.(error, attempt);
        await sleep(delay(attempt));
        if (stopped) throw error;
      }
    }
    const last = batch[batch.length - 1]!.position;
    await options.checkpoint.save(last);
    relayed = last;
  };

  const subscription = options.store.subscribe(relayed, handler, {
    batchSize: options.batchSize ?? 200,
    onError: (error) => {
      if (!stopped) options.onError?.(error);
    },
  });
  return {
    caughtUp: subscription.caughtUp,
    relayed: () => relayed,
    async close() {
      stopped = true;
      wakeSleeper?.();
      await subscription.close();
    },
  };
}
