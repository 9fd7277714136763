import type pg from 'pg';
import { comparePositions, START } from '@pf/events';
import {
  advanceAppliedThrough,
  analyticsCheckpointName,
  analyticsFollower,
  loadCheckpoint,
  lockCheckpoint,
  saveCheckpoint,
  type AnalyticsHandler,
  type AnalyticsSourceOptions,
  type EventStore,
  type FollowerSpec,
  type RecordedEvent,
} from '@pf/infra';
import { projectAnalytics } from './projection';

/** The analytics consumer that feeds Analytics & Reports and Market Intelligence: its checkpoint, group and dedup scope. */
export const ANALYTICS_FACTS_CONSUMER = 'facts';
export const ANALYTICS_FACTS_CHECKPOINT = analyticsCheckpointName(ANALYTICS_FACTS_CONSUMER);
export const ANALYTICS_FACT_TABLES: readonly string[] = [
  'rm_an_agents',
  'rm_an_criteria',
  'rm_an_deals',
  'rm_an_negotiations',
  'rm_an_leads',
  'rm_an_offers',
];
/**
 * The indexes the facts' fold loads its rows through besides the keys (a borrower's deals and offers, when its
 * criteria change: projection.ts): a rebuild keeps them while the rows go in, or each batch's load would read
 * the whole growing table (docs/decisions/live-rebuild.md).
 */
export const ANALYTICS_FOLD_INDEXES: readonly string[] = ['rm_an_deals_borrower', 'rm_an_offers_borrower'];

/** The greatest position of a batch (Kafka hands batches over per partition, so not necessarily the last one). */
function greatest(batch: readonly RecordedEvent[]): RecordedEvent['position'] {
  return batch.reduce((best, event) => (comparePositions(event.position, best) > 0 ? event.position : best), START);
}

/**
 * The fold, as the analytics source hands it events it has not applied before (inside the source's
 * transaction). From the event store the source then saves its checkpoint; from Kafka it keeps none, so the
 * handler moves the checkpoint forward to the furthest event applied, to show how far the consumer has got
 * (reads from Kafka wait for their own event instead: read-wait.ts).
 */
export const analyticsFactsHandler: AnalyticsHandler = async (events, client) => {
  await projectAnalytics(client, events);
  const furthest = greatest(events);
  if (comparePositions(furthest, await loadCheckpoint(client, ANALYTICS_FACTS_CHECKPOINT)) > 0) {
    await saveCheckpoint(client, ANALYTICS_FACTS_CHECKPOINT, furthest);
  }
};

/** The analytics facts consumer as a supervised follower: the event store by default, Kafka with KAFKA_BROKERS. */
export function analyticsFactsFollower(options: Omit<AnalyticsSourceOptions, 'name' | 'onError' | 'onApplied'>): FollowerSpec {
  return analyticsFollower({ ...options, name: ANALYTICS_FACTS_CONSUMER }, analyticsFactsHandler);
}

/**
 * Drops the facts and replays every event into them with the same fold, inside the caller's transaction. The
 * consumer's claims go with the facts and its watermark is set to the last event replayed (one row, not a claim
 * per event: docs/decisions/live-rebuild.md), so a Kafka consumer that has not reached those events yet skips
 * them; a consumer running beside it waits on the checkpoint lock and the truncate.
 */
export async function rebuildAnalyticsFacts(client: pg.ClientBase, store: EventStore, batchSize: number): Promise<void> {
  const rebuild = await startAnalyticsRebuild(client);
  let position = START;
  for (;;) {
    const batch = await store.readAll(position, batchSize);
    if (batch.length === 0) break;
    await rebuild.apply(batch);
    position = batch[batch.length - 1]!.position;
  }
  await rebuild.finish(position);
}

/**
 * rebuildAnalyticsFacts in steps, for a caller that reads the store once and hands each batch to several
 * folds: lock and empty, apply batches in order, then save the checkpoint and the watermark and analyse.
 */
async function startAnalyticsRebuild(client: pg.ClientBase): Promise<{
  apply(batch: readonly RecordedEvent[]): Promise<void>;
  finish(position: RecordedEvent['position']): Promise<void>;
}> {
  await lockCheckpoint(client, ANALYTICS_FACTS_CHECKPOINT);
  await client.query(`truncate ${ANALYTICS_FACT_TABLES.join(', ')}`);
  // The facts are empty: nothing is applied any more until the replay says so.
  await client.query('delete from analytics_processed_events where consumer = $1', [ANALYTICS_FACTS_CONSUMER]);
  await client.query('delete from analytics_applied_through where consumer = $1', [ANALYTICS_FACTS_CONSUMER]);
  return {
    async apply(batch) {
      await projectAnalytics(client, batch);
    },
    async finish(position) {
      await saveCheckpoint(client, ANALYTICS_FACTS_CHECKPOINT, position);
      await advanceAppliedThrough(client, ANALYTICS_FACTS_CONSUMER, position);
      await client.query(`analyze ${ANALYTICS_FACT_TABLES.join(', ')}`);
    },
  };
}
