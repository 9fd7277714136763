import type pg from 'pg';
import { START } from '@pf/events';
import { inTransaction, liftSessionLimits, lockCheckpoint, saveCheckpoint, type EventStore } from '@pf/infra';
import { projectReadModels, READ_MODEL_TABLES } from './read-models';
import { READ_MODELS_PROJECTION } from './projector/checkpoint';
import { ProjectorMemory } from './projector/memory';
import { startAnalyticsRebuild } from './read-models/analytics/consumer';

/**
 * Drops the read models and replays every event from the start, in one transaction: readers keep
 * seeing the old rows until the new ones are complete, and a projector running beside it waits on
 * the checkpoint lock, then skips what the rebuild applied.
 */
export async function rebuildReadModels(pool: pg.Pool, store: EventStore, batchSize = 2000): Promise<number> {
  return inTransaction(pool, async (client) => {
    // One transaction over the whole store, which may take minutes: the pool's limits do not apply to it.
    await liftSessionLimits(client);
    await lockCheckpoint(client, READ_MODELS_PROJECTION);
    await client.query(`truncate ${READ_MODEL_TABLES.join(', ')}`);
    // The analytics facts are the analytics consumer's: replayed with its fold, its checkpoint moved with them,
    // from the same batches (one read of the store, not two).
    const analytics = await startAnalyticsRebuild(client);
    // The rows it writes, known without reading them back (nobody else writes while it holds the lock).
    const memory = new ProjectorMemory();
    let position = START;
    let applied = 0;
    // The next batch is read (on another connection) while this one is applied: the store's read and the
    // folding overlap instead of taking turns.
    let next = store.readAll(position, batchSize);
    try {
      for (;;) {
        const batch = await next;
        if (batch.length === 0) break;
        const last = batch[batch.length - 1]!.position;
        next = store.readAll(last, batchSize);
        memory.begin(position);
        await projectReadModels(client, batch, memory);
        memory.committed(last);
        await analytics.apply(batch);
        applied += batch.length;
        position = last;
      }
    } finally {
      // A read still in flight when a batch failed: its answer (or error) is not wanted.
      next.catch(() => undefined);
    }
    await saveCheckpoint(client, READ_MODELS_PROJECTION, position);
    await analytics.finish(position);
    // Every row is new: fresh planner statistics, or the first reads plan as if the tables were empty.
    await client.query(`analyze ${READ_MODEL_TABLES.join(', ')}`);
    return applied;
  });
}
