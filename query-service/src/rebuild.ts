import type pg from 'pg';
import type { EventStore } from '@pf/infra';
import { liveRebuild, type LiveRebuildOptions } from './rebuild/live-rebuild';

export { liveRebuild, RebuildRunning, type LiveRebuildOptions, type RebuildProgress, type RebuildResult } from './rebuild/live-rebuild';
export { REBUILD_PARTS, UnknownReadModel } from './rebuild/parts';

/**
 * Rebuilds every read model and the analytics facts from the events, live: beside the tables the product
 * reads, in committed batches, switched in by one short transaction (rebuild/live-rebuild.ts,
 * docs/decisions/live-rebuild.md). Resolves with the number of events folded.
 */
export async function rebuildReadModels(pool: pg.Pool, store: EventStore, options: LiveRebuildOptions = {}): Promise<number> {
  return (await liveRebuild(pool, store, options)).applied;
}
