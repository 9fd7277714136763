import type { EventMetadata, Position } from '@pf/events';

/**
 * "no_stream": the stream must not exist yet; "any": no check; a number: the version of the
 * stream's last event (versions start at 0, as EventStoreDB revisions do).
 */
export type ExpectedVersion = 'no_stream' | 'any' | number;

export interface NewEvent {
  /** A UUID; appending the same ids again stores nothing twice. */
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

export interface RecordedEvent<Data = unknown> {
  readonly id: string;
  readonly type: string;
  readonly stream: string;
  readonly streamVersion: number;
  readonly position: Position;
  readonly recordedAt: Date;
  readonly data: Data;
  readonly metadata: EventMetadata;
}

export interface AppendResult {
  /** The version of the stream's last event after the append. */
  readonly nextExpectedVersion: number;
  /** The global position of the last event appended (or found, for a retried append). */
  readonly position: Position;
}

export type BatchHandler = (batch: readonly RecordedEvent[]) => Promise<void>;

export interface SubscribeOptions {
  readonly batchSize?: number;
  /** Called when the handler or the store fails; the subscription stops after it. */
  readonly onError?: (error: unknown) => void;
}

export interface Subscription {
  /** Stops after the batch in hand; resolves when stopped. */
  close(): Promise<void>;
  /** Resolves when the subscription has caught up with the events stored when it started. */
  readonly caughtUp: Promise<void>;
}

/** The event store port (DESIGN.md "The event store"); every adapter passes the same contract suite. */
export interface EventStore {
  append(stream: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult>;
  /** Events of one stream from a version (inclusive), in stream order. */
  readStream(stream: string, fromVersion?: number): Promise<RecordedEvent[]>;
  /** Up to `limit` events after a position (exclusive), in global order. */
  readAll(after: Position, limit: number): Promise<RecordedEvent[]>;
  /** Catches up from a position (exclusive), then follows live; batches are handled one at a time. */
  subscribe(after: Position, handler: BatchHandler, options?: SubscribeOptions): Subscription;
  /** The position of the last event a reader can see now (START when empty). */
  headPosition(): Promise<Position>;
  close(): Promise<void>;
}
