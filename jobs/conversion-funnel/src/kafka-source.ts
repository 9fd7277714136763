import { Kafka, logLevel } from 'kafkajs';
import { feedEnvelope, type FeedEnvelope } from '@pf/events';
import type { EventSource } from './source';

export interface KafkaSourceOptions {
  readonly brokers: readonly string[];
  readonly topic: string;
  /** The consumer group: its committed offsets are where the job resumes. */
  readonly groupId: string;
  readonly log?: (line: string) => void;
}

/**
 * The Kafka topic (KAFKA_BROKERS): the relay publishes every event keyed by stream, so one stream is one
 * partition and arrives in order. Offsets are committed only after the batch is handled (and checkpointed),
 * so a crash redelivers rather than loses; the funnel drops the repeats. The topic carries the whole
 * deployment's events, not one firm's: it is for jobs run by whoever runs the platform.
 */
export function kafkaSource(options: KafkaSourceOptions): EventSource {
  const kafka = new Kafka({ clientId: 'conversion-funnel', brokers: [...options.brokers], logLevel: logLevel.WARN });
  const consumer = kafka.consumer({ groupId: options.groupId });
  const log = options.log ?? (() => undefined);
  // start() resolves when the consumer is closed, and rejects when it crashes for good (kafkajs gave up restarting).
  let stopped: () => void = () => undefined;
  let crashed: (error: unknown) => void = () => undefined;
  const ended = new Promise<void>((resolve, reject) => {
    stopped = resolve;
    crashed = reject;
  });
  consumer.on(consumer.events.CRASH, (event) => {
    if (!event.payload.restart) crashed(event.payload.error);
  });
  return {
    name: `Kafka topic ${options.topic} at ${options.brokers.join(',')}`,
    async start(_after, onBatch) {
      await consumer.connect();
      await consumer.subscribe({ topics: [options.topic], fromBeginning: true });
      await consumer.run({
        eachBatchAutoResolve: false,
        eachBatch: async (payload) => {
          const { batch } = payload;
          const events: FeedEnvelope[] = [];
          for (const message of batch.messages) {
            const parsed = message.value ? feedEnvelope.safeParse(JSON.parse(message.value.toString())) : null;
            if (parsed?.success) events.push(parsed.data);
            else log(`Skipping a message that is not an event (partition ${batch.partition}, offset ${message.offset})`);
          }
          if (!payload.isRunning() || payload.isStale()) return;
          if (events.length > 0) await onBatch(events);
          const last = batch.messages[batch.messages.length - 1];
          if (last) payload.resolveOffset(last.offset);
          await payload.commitOffsetsIfNecessary();
          await payload.heartbeat();
        },
      });
      return ended;
    },
    async close() {
      await consumer.disconnect();
      stopped();
    },
  };
}
