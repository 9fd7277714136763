import type pg from 'pg';
import { NotCaughtUp, type StoredEvent } from '@pf/infra';
import type { ReadModelProgress } from '../../projection-kit/progress';
import { erasedBatch, type ErasedEvent } from './batch';

/**
 * What the Kafka relay publishes of a batch (docs/decisions/hash-chain.md "Erasure"): each event as the event feed
 * hands it out, a deleted person's data removed by the same rule. Who is behind a stream and who has gone is read
 * from the read models, so the relay waits for the projector to have applied the batch first, as the feed does
 * (for as long as it takes: publishing later is better than publishing what should have been erased).
 */
export function erasedForPublishing(
  pool: pg.Pool,
  progress: Pick<ReadModelProgress, 'waitFor'>,
  waitMs: number,
): (batch: readonly StoredEvent[]) => Promise<ErasedEvent[]> {
  return async (batch) => {
    if (batch.length === 0) return [];
    const last = batch[batch.length - 1]!.position;
    for (;;) {
      try {
        await progress.waitFor(last, waitMs);
        break;
      } catch (error) {
        if (!(error instanceof NotCaughtUp)) throw error;
      }
    }
    return erasedBatch(pool, batch);
  };
}
