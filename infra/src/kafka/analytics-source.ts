import type pg from 'pg';
import type { Kafka } from 'kafkajs';
import type { Config } from '../config';
import { inTransaction } from '../db/pool';
import { migrate } from '../db/migrate';
import { BACKGROUND_BATCH_INTERVAL_MS, type EventStore, type RecordedEvent, type StoredEvent } from '../event-store/port';
import { recordedEventOf } from '../event-store/contract-reads';
import type { Logger } from '../logger';
import { loadCheckpoint, lockCheckpoint, saveCheckpoint, toPosition, type Queryable } from '../db/checkpoints';
import { parseMessage } from './envelope';
import { createKafka } from './kafka-relay-service';
import { analyticsSourceMigrations } from './schema';
import { runOf } from '../supervision/follow';
import type { FollowerSpec } from '../supervision/supervisor';
import { comparePositions, START, type Position } from '@pf/events';

/**
 * What an analytics job implements: apply events it has not seen before, inside the transaction it
 * is given (write the read-model rows with `client`). Each event id reaches it at most once per
 * consumer name, whichever source feeds it and however often the source delivers it.
 * Order: global order from the event store; from Kafka, stream order only (streams interleave
 * differently), so a handler must not depend on the order of events of different streams.
 */
/** The checkpoint row of an analytics consumer. */
export const analyticsCheckpointName = (consumer: string) => `analytics:${consumer}`;

export type AnalyticsHandler = (events: readonly RecordedEvent[], client: pg.PoolClient) => Promise<void>;

export interface AnalyticsSource {
  readonly kind: 'event-store' | 'kafka';
  /** Event store: the events stored at start have been applied. Kafka: the consumer has joined its group. */
  readonly caughtUp: Promise<void>;
  close(): Promise<void>;
}

export interface AnalyticsSourceOptions {
  /** The consumer's name: its checkpoint row, its Kafka consumer group and the scope of deduplication. */
  readonly name: string;
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly config: Pick<Config, 'KAFKA_BROKERS' | 'KAFKA_TOPIC'>;
  readonly logger: Logger;
  readonly batchSize?: number;
  /** The source failed and stopped (the caller may restart it or exit). */
  readonly onError?: (error: unknown) => void;
  /** Told the position of each batch applied from the event store (for the follower's lag). */
  readonly onApplied?: (position: RecordedEvent['position']) => void;
}

/**
 * The consumer's watermark: every event at or before it has been applied (its rows were rebuilt up to there);
 * null when none is recorded. Events after it are deduplicated by their claimed ids.
 */
export async function loadAppliedThrough(db: Queryable, consumer: string): Promise<Position | null> {
  const found = await db.query<{ commit: string; prepare: string }>(
    'select commit_position::text as commit, prepare_position::text as prepare from analytics_applied_through where consumer = $1',
    [consumer],
  );
  return found.rows[0] ? toPosition(found.rows[0]) : null;
}

/**
 * Moves the consumer's watermark forward to `position`, never back (the greater of the two stays), in the
 * caller's transaction: one row however many events it covers. START records nothing.
 */
export async function advanceAppliedThrough(db: Queryable, consumer: string, position: Position): Promise<void> {
  if (comparePositions(position, START) <= 0) return;
  await db.query(
    `insert into analytics_applied_through as t (consumer, commit_position, prepare_position) values ($1, $2, $3)
     on conflict (consumer) do update
       set commit_position = excluded.commit_position, prepare_position = excluded.prepare_position, updated_at = now()
       where (t.commit_position, t.prepare_position) < (excluded.commit_position, excluded.prepare_position)`,
    [consumer, position.commit.toString(), position.prepare.toString()],
  );
}

/** Whether the consumer has applied the event: its id claimed, or its position at or before the watermark. */
export async function hasApplied(db: Queryable, consumer: string, event: Pick<RecordedEvent, 'id' | 'position'>): Promise<boolean> {
  const found = await db.query<{ applied: boolean }>(
    `select exists (select 1 from analytics_processed_events where consumer = $1 and event_id = $2)
         or exists (select 1 from analytics_applied_through
                    where consumer = $1 and (commit_position, prepare_position) >= ($3::numeric, $4::numeric)) as applied`,
    [consumer, event.id, event.position.commit.toString(), event.position.prepare.toString()],
  );
  return found.rows[0]!.applied;
}

/**
 * Applies a batch once: drops the events at or before the consumer's watermark (set by a rebuild:
 * advanceAppliedThrough), claims the ids of the rest in analytics_processed_events and hands over only the ones
 * not claimed before, in the same transaction as the handler's writes, so a redelivered event (Kafka is
 * at-least-once) or a second copy of the job changes nothing. The Kafka consumer's; a batch from the event store
 * goes through applyInLogOrder.
 */
export async function applyOnce(
  pool: pg.Pool,
  consumer: string,
  batch: readonly RecordedEvent[],
  handler: AnalyticsHandler,
): Promise<RecordedEvent[]> {
  return inTransaction(pool, async (client) => {
    // The checkpoint row first, as a rebuild takes it before emptying the facts: the two then take turns. Claiming
    // first left a batch holding the claims a rebuild deletes while waiting for the tables it empties (a deadlock).
    await lockCheckpoint(client, analyticsCheckpointName(consumer));
    // The watermark is read after that lock, in the claiming statement (no round trip of its own): a rebuild moves
    // it while holding the lock (docs/decisions/live-rebuild.md), so a batch that waited for the rebuild sees where
    // the rebuilt rows stand. Events at or before it are neither claimed nor applied.
    const ids = [...new Map(batch.map((event) => [event.id, event.position])).entries()];
    const claimed = await client.query<{ event_id: string }>(
      `insert into analytics_processed_events (consumer, event_id)
       select $1, e.id from unnest($2::uuid[], $3::numeric[], $4::numeric[]) as e(id, commit_position, prepare_position)
       where not exists (select 1 from analytics_applied_through t
                         where t.consumer = $1 and (t.commit_position, t.prepare_position) >= (e.commit_position, e.prepare_position))
       on conflict do nothing
       returning event_id::text`,
      [consumer, ids.map(([id]) => id), ids.map(([, p]) => p.commit.toString()), ids.map(([, p]) => p.prepare.toString())],
    );
    const fresh = new Set(claimed.rows.map((row) => row.event_id.toLowerCase()));
    const events = batch.filter((event) => fresh.delete(event.id.toLowerCase()));
    if (events.length > 0) await handler(events, client);
    return events;
  });
}

/**
 * Applies a batch read from the event store, which hands events over in the log's order with none left out
 * (docs/decisions/event-order-by-transaction-id.md): once the batch commits, every event up to its last is
 * applied, so the watermark moves there with the checkpoint, one row each, where applyOnce claims every event (a
 * row per event for as long as the database lives). Events at or before the watermark as it stood (a rebuild's
 * switch, a second copy of the job that went first) or claimed are dropped, as applyOnce drops them; a Kafka
 * consumer of the same name later drops every event this one applied (docs/decisions/live-rebuild.md).
 */
export async function applyInLogOrder(
  pool: pg.Pool,
  consumer: string,
  batch: readonly RecordedEvent[],
  handler: AnalyticsHandler,
  last: Position,
): Promise<RecordedEvent[]> {
  return inTransaction(pool, async (client) => {
    // The checkpoint row first, as in applyOnce: a rebuild holds it while it moves the watermark.
    const stored = await lockCheckpoint(client, analyticsCheckpointName(consumer));
    // The claims are read, never written: a copy of the job from before this (a rolling upgrade runs the two side
    // by side) or a Kafka consumer of the same name may have claimed some of these events.
    const seen = await client.query<{ commit: string | null; prepare: string | null; claimed: string[] }>(
      `select t.commit_position::text as commit, t.prepare_position::text as prepare,
              array(select event_id::text from analytics_processed_events where consumer = $1 and event_id = any($2::uuid[])) as claimed
       from (select 1) as one left join analytics_applied_through t on t.consumer = $1`,
      [consumer, batch.map((event) => event.id)],
    );
    const { commit, prepare, claimed } = seen.rows[0]!;
    const through = commit !== null && prepare !== null ? toPosition({ commit, prepare }) : null;
    const taken = new Set(claimed);
    const events = batch.filter(
      (event) => (!through || comparePositions(event.position, through) > 0) && !taken.has(event.id.toLowerCase()),
    );
    if (events.length > 0) await handler(events, client);
    await advanceAppliedThrough(client, consumer, last);
    // Forward only: a copy that waited behind one further on leaves the checkpoint where that one put it.
    if (comparePositions(last, stored) > 0) await saveCheckpoint(client, analyticsCheckpointName(consumer), last);
    return events;
  });
}

/** Feeds `handler` from Kafka when KAFKA_BROKERS is set, else from the event store (the default). */
export async function startAnalyticsSource(options: AnalyticsSourceOptions, handler: AnalyticsHandler): Promise<AnalyticsSource> {
  await migrate(options.pool, analyticsSourceMigrations);
  const brokers = options.config.KAFKA_BROKERS;
  if (brokers && brokers.length > 0) {
    return fromKafka(options, createKafka(brokers, `analytics-${options.name}`), handler);
  }
  return fromEventStore(options, handler);
}

/**
 * The analytics consumer as a supervised follower: each run opens the source again, from its checkpoint
 * (event store) or its consumer group's committed offsets (Kafka).
 */
export function analyticsFollower(options: Omit<AnalyticsSourceOptions, 'onError' | 'onApplied'>, handler: AnalyticsHandler): FollowerSpec {
  let position: Position | null = null;
  return {
    name: `analytics:${options.name}`,
    position: () => position,
    start: () =>
      runOf((onError) =>
        startAnalyticsSource({ ...options, onError, onApplied: (applied) => (position = applied) }, handler).then((source) => {
          if (source.kind === 'kafka') position = null;
          return source;
        }),
      ),
  };
}

async function fromEventStore(options: AnalyticsSourceOptions, handler: AnalyticsHandler): Promise<AnalyticsSource> {
  const after = await loadCheckpoint(options.pool, analyticsCheckpointName(options.name));
  options.onApplied?.(after);
  const subscription = options.store.subscribe(
    after,
    async (batch) => {
      const last = batch[batch.length - 1]!.position;
      await applyInLogOrder(options.pool, options.name, batch, handler, last);
      options.onApplied?.(last);
    },
    { batchSize: options.batchSize ?? 500, minIntervalMs: BACKGROUND_BATCH_INTERVAL_MS, onError: options.onError },
  );
  return { kind: 'event-store', caughtUp: subscription.caughtUp, close: () => subscription.close() };
}

export async function fromKafka(
  options: Pick<AnalyticsSourceOptions, 'name' | 'pool' | 'config' | 'logger' | 'onError'>,
  kafka: Kafka,
  handler: AnalyticsHandler,
): Promise<AnalyticsSource> {
  const log = options.logger.child({ component: 'analytics-source', consumer: options.name });
  const consumer = kafka.consumer({ groupId: `analytics-${options.name}` });
  let joined: () => void = () => undefined;
  const caughtUp = new Promise<void>((resolve) => (joined = resolve));
  consumer.on(consumer.events.GROUP_JOIN, () => joined());
  consumer.on(consumer.events.CRASH, (event) => {
    if (!event.payload.restart) options.onError?.(event.payload.error);
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [options.config.KAFKA_TOPIC], fromBeginning: true });
  await consumer.run({
    eachBatchAutoResolve: false,
    eachBatch: async (payload) => {
      const { batch } = payload;
      const stored: StoredEvent[] = [];
      for (const message of batch.messages) {
        try {
          stored.push(parseMessage(message.value));
        } catch (error) {
          // A message that is not an event envelope can never be applied; skip it rather than stall the partition.
          log.error({ err: error, partition: batch.partition, offset: message.offset }, 'Skipping a message that is not an event');
        }
      }
      if (!payload.isRunning() || payload.isStale()) return;
      // Read through the contract as the store's reads are (contract-reads.ts): an envelope whose event it refuses fails the batch.
      const events = stored.map(recordedEventOf);
      if (events.length > 0) await applyOnce(options.pool, options.name, events, handler);
      // Offsets are committed after the transaction: a crash in between redelivers, and applyOnce drops the repeats.
      const last = batch.messages[batch.messages.length - 1];
      if (last) payload.resolveOffset(last.offset);
      await payload.commitOffsetsIfNecessary();
      await payload.heartbeat();
    },
  });
  return {
    kind: 'kafka',
    caughtUp,
    close: () => consumer.disconnect(),
  };
}
