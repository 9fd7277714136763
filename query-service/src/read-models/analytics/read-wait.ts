import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import { comparePositions, formatPosition, type Position } from '@pf/events';
import { analyticsCheckpointName, hasApplied, Invalid, NotCaughtUp, type Config, type EventStore } from '@pf/infra';
import { ReadModelProgress } from '../../projection-kit/progress';
import { afterPosition, waitUntilApplied } from '../../read-wait';
import { ANALYTICS_FACTS_CONSUMER } from './consumer';

const POLL_MS = 50;

/**
 * Read your writes for an analytics consumer's rows (the facts by default): a read naming a position waits (bounded by READ_WAIT_TIMEOUT_MS)
 * until the analytics consumer has applied it. From the event store the consumer's checkpoint says so (global
 * order). From Kafka there is no global order across partitions, so the wait is for the event written at that
 * position itself to have been applied (its id claimed by the consumer, or its position at or before the
 * consumer's watermark, which a rebuild of its rows sets: docs/decisions/live-rebuild.md); Kafka keeps its
 * stream in order, so everything written before it in that stream is in too.
 */
export function analyticsReadWait(
  pool: pg.Pool,
  store: EventStore,
  config: Pick<Config, 'READ_WAIT_TIMEOUT_MS' | 'KAFKA_BROKERS'>,
  consumer: string = ANALYTICS_FACTS_CONSUMER,
) {
  const progress = new ReadModelProgress(pool, analyticsCheckpointName(consumer));
  const fromKafka = (config.KAFKA_BROKERS?.length ?? 0) > 0;

  async function eventAt(position: Position): Promise<string | null> {
    // Nothing sits between (commit, prepare - 1) and (commit, prepare) in either store's order.
    const [next] = await store.readAll({ commit: position.commit, prepare: position.prepare - 1n }, 1);
    return next && comparePositions(next.position, position) === 0 ? next.id : null;
  }

  async function appliedFromKafka(position: Position, timeoutMs: number): Promise<void> {
    const id = await eventAt(position);
    if (id === null)
      throw new Invalid(`x-after-position: no event was written at "${formatPosition(position)}"; send a position this server gave you`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await hasApplied(pool, consumer, { id, position })) return;
      if (Date.now() >= deadline) throw new NotCaughtUp(formatPosition(position), timeoutMs);
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, deadline - Date.now())));
    }
  }

  return async (request: FastifyRequest): Promise<void> => {
    const after = afterPosition(request);
    if (!after) return;
    if (fromKafka) return appliedFromKafka(after.position, config.READ_WAIT_TIMEOUT_MS);
    await waitUntilApplied(progress, store, after, config.READ_WAIT_TIMEOUT_MS);
  };
}
