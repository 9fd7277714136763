import type pg from 'pg';
import { comparePositions, type Position } from '@pf/events';
import { inTransaction, loadCheckpoint, lockCheckpoint, saveCheckpoint, type EventStore, type Logger, type RecordedEvent, type Subscription } from '@pf/infra';
import { applyBatch } from '../read-models/apply-batch';
import { READ_MODELS_PROJECTION } from './checkpoint';
import type { ReadModelProgress } from './progress';

/**
 * Applies a batch and moves the checkpoint in one transaction. The checkpoint row is locked first
 * and events at or before it are skipped, so several projectors (copies of the query-service, or a
 * rebuild running beside the server) apply each event exactly once.
 */
export async function projectBatch(pool: pg.Pool, batch: readonly RecordedEvent[], name = READ_MODELS_PROJECTION): Promise<Position> {
  return inTransaction(pool, async (client) => {
    const checkpoint = await lockCheckpoint(client, name);
    const fresh = batch.filter((event) => comparePositions(event.position, checkpoint) > 0);
    if (fresh.length > 0) await applyBatch(client, fresh);
    const last = fresh.at(-1)?.position ?? checkpoint;
    if (fresh.length > 0) await saveCheckpoint(client, name, last);
    return last;
  });
}

/** Follows the store from the stored checkpoint; after a failure it logs and starts again from the checkpoint. */
export async function startProjector(
  pool: pg.Pool,
  store: EventStore,
  progress: ReadModelProgress,
  log: Logger,
): Promise<Subscription> {
  let current: Subscription | null = null;
  let stopped = false;
  let markCaughtUp: () => void = () => undefined;
  const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));

  const start = async () => {
    const from = await loadCheckpoint(pool, READ_MODELS_PROJECTION);
    progress.advance(from);
    current = store.subscribe(
      from,
      async (batch) => {
        progress.advance(await projectBatch(pool, batch));
      },
      {
        batchSize: 1000,
        onError: (error) => {
          log.error({ err: error }, 'the read-model projector failed; restarting from its checkpoint in 1 s');
          if (!stopped) setTimeout(() => void start().catch(() => undefined), 1000).unref();
        },
      },
    );
    void current.caughtUp.then(markCaughtUp);
  };
  await start();
  return {
    caughtUp,
    async close() {
      stopped = true;
      await current?.close();
    },
  };
}
