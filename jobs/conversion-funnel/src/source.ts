import type { FeedEnvelope } from '@pf/events';

/**
 * Where the job's events come from: the platform's event feed (the default) or the Kafka topic (KAFKA_BROKERS).
 * Both hand over batches of envelopes, each stream's events in stream order, at least once; everything the job
 * does beyond this interface is the same whichever source feeds it.
 */
export interface EventSource {
  readonly name: string;
  /**
   * Delivers batches until closed. `after`: the feed resumes after this position (Kafka resumes from its
   * consumer group's committed offsets instead). A batch counts as handled when `onBatch` resolves.
   */
  start(after: string | null, onBatch: (events: readonly FeedEnvelope[]) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}
