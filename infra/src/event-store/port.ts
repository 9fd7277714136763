import type { DomainEventType, EventMetadata, EventOf, Position } from '@pf/events';

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

/** What the store records around an event, whatever its type. */
interface RecordedEnvelope {
  readonly id: string;
  readonly stream: string;
  readonly streamVersion: number;
  readonly position: Position;
  readonly recordedAt: Date;
  readonly metadata: EventMetadata;
  /** The event's link in its stream's hash chain (hash-chain.ts); null for an event stored before the chain. */
  readonly hash?: string | null;
  readonly previousHash?: string | null;
}

/**
 * An event as the store holds it: its type and its data as recorded, unread. What the hash chain hashes and the Kafka
 * relay publishes; a reader that must go on past an event the contract refuses (History, the transcripts, the
 * gateway) reads these through `readStoredEventOrNull`.
 */
export interface StoredEvent extends RecordedEnvelope {
  readonly type: string;
  readonly data: unknown;
}

/**
 * An event of the contract as the store's reads answer it (docs/architecture.md, "Stored events"): upgraded and
 * validated once, where it leaves the store (contract-reads.ts), and narrowed by its type without a cast.
 */
export type RecordedEvent<T extends DomainEventType = DomainEventType> = {
  [K in T]: RecordedEnvelope & { readonly type: K; readonly data: EventOf<K>['data'] };
}[T];

export interface ReadAllOptions {
  /**
   * true: the events as a fold needs them, without their links in the hash chain (no `hash`, `previousHash`): two
   * 64-character texts fewer to send and decode per event, for a rebuild of the read models. An adapter may ignore it.
   */
  readonly lean?: boolean;
}

/** The end of a stream as the store records it, which the verifier holds the last stored event to. */
export interface StreamHeadRecord {
  readonly version: number;
  readonly hash: string | null;
}

export interface AppendResult {
  /** The version of the stream's last event after the append. */
  readonly nextExpectedVersion: number;
  /** The global position of the last event appended (or found, for a retried append). */
  readonly position: Position;
  /**
   * The recorded time of the events appended (for a retried append, as first recorded), where the store sets
   * it itself (PostgreSQL: one time for the append; absent for EventStoreDB). Lets a command answer with a
   * view of the stream without reading back what it has just written.
   */
  readonly recordedAt?: Date;
}

export interface TypedRead<Recorded = RecordedEvent> {
  readonly events: Recorded[];
  readonly through: Position;
}

export type BatchHandler<Recorded = RecordedEvent> = (batch: readonly Recorded[]) => Promise<void>;

/** SubscribeOptions.minIntervalMs of the followers no one waits on event by event (their figures move in steps of this). */
export const BACKGROUND_BATCH_INTERVAL_MS = 100;

export interface SubscribeOptions {
  readonly batchSize?: number;
  /**
   * For followers no one waits on event by event (analytics, the deal opener): at the head of the log, the
   * next read waits until this long after the last batch began, so a busy log is taken in fewer, larger
   * batches (one transaction and one checkpoint each). Catching up is never slowed. The PostgreSQL store's
   * subscription honours it; EventStoreDB's pushes as events come.
   */
  readonly minIntervalMs?: number;
  /** Called when the handler or the store fails; the subscription stops after it. */
  readonly onError?: (error: unknown) => void;
}

export interface Subscription {
  /** Stops after the batch in hand; resolves when stopped. */
  close(): Promise<void>;
  /** Resolves when the subscription has caught up with the events stored when it started. */
  readonly caughtUp: Promise<void>;
}

/**
 * The event store port (DESIGN.md "The event store"); every adapter passes the same contract suite. An adapter
 * answers the events as stored (`EventStore<StoredEvent>`); the services read them as the contract's events
 * (`EventStore`, through contract-reads.ts).
 */
export interface EventStore<Recorded = RecordedEvent> {
  /**
   * For the type checker only (never set): holds a store to the events its reads answer, so a store read through the
   * contract is never handed to what must see the events as stored (the hash chain's verifier would hash the data as
   * read), nor the other way round.
   */
  readonly answers?: (recorded: Recorded) => void;
  append(stream: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult>;
  /** Events of one stream from a version (inclusive), in stream order. */
  readStream(stream: string, fromVersion?: number): Promise<Recorded[]>;
  /** The stream's head (version and hash of its last event) as the store keeps it; null when it has none. */
  streamHead(stream: string): Promise<StreamHeadRecord | null>;
  /**
   * Of these streams, the ones that have events: one question for a page of them, where a follower catching up on a
   * long log would otherwise ask each stream's head (docs/decisions/bounded-restart.md).
   */
  streamsWithEvents(streams: readonly string[]): Promise<Set<string>>;
  /** Up to `limit` events after a position (exclusive), in global order. */
  readAll(after: Position, limit: number, options?: ReadAllOptions): Promise<Recorded[]>;
  /** Catches up from a position (exclusive), then follows live; batches are handled one at a time. */
  subscribe(after: Position, handler: BatchHandler<Recorded>, options?: SubscribeOptions): Subscription;
  /** The position of the last event a reader can see now (START when empty). */
  headPosition(): Promise<Position>;
  /**
   * Whether an event was ever written at exactly this position (committed, visible yet or not). Tells a
   * position a client was given from one it made up; adapters that cannot tell leave it out.
   */
  wasWrittenAt?(position: Position): Promise<boolean>;
  /**
   * Up to `limit` events of these types after a position (exclusive), in global order, and `through`: the position
   * the read covered (every event of these types up to it is in `events`; the head when fewer than `limit` came).
   * Lets a follower that acts on a few types (the deal opener) catch up on a long log without reading all of it
   * (docs/decisions/bounded-restart.md); adapters that cannot leave it out.
   */
  readTypes?(after: Position, types: readonly string[], limit: number): Promise<TypedRead<Recorded>>;
  close(): Promise<void>;
}
