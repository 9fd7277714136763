import type pg from 'pg';
import type { Migration, RecordedEvent } from '@pf/infra';
import type { ProjectorMemory } from './memory';

/**
 * One read model: its tables, how they are created, and how a batch of events changes them. The projector
 * and the rebuild run every registered read model over the same batch in one transaction, so they all stand
 * at the same checkpoint. A read model lives in its own folder (`read-models/<name>/`) with its projection,
 * its queries and its tests; its meaning per event is a pure `evolve` (shared from `@pf/events` where the
 * gateway or the automation fold the same view).
 */
export interface ReadModel {
  readonly name: string;
  /** Every table it owns, emptied by a rebuild. Names start with `rm_`. */
  readonly tables: readonly string[];
  readonly migrations: readonly Migration[];
  /**
   * Names of the read models whose rows its projection reads (a match's parties from rm_agents): a live rebuild
   * of this one rebuilds those with it, so it reads them as they stood at each event (docs/decisions/live-rebuild.md).
   */
  readonly reads?: readonly string[];
  /**
   * Names of the read models whose rows it rewrites after them in every batch (the erasure step): a live rebuild of
   * any of those runs it too, so a board refilled alone is erased as the live one is (docs/decisions/hash-chain.md
   * "Erasure"). What it reads and is not rebuilt it reads live, where it already stands at the head.
   */
  readonly rewrites?: readonly string[];
  /**
   * Indexes its projection's own reads go through (a lookup by a document field): a rebuild that builds the other
   * indexes once the rows are in keeps these from the start, since a read without them scans the table at every batch.
   */
  readonly foldIndexes?: readonly string[];
  /**
   * Applies a batch (in global order) inside the caller's transaction. Events it does not know are ignored.
   * `memory`: the running projector's knowledge of rows it wrote (absent in a rebuild: then read them).
   */
  project(client: pg.ClientBase, batch: readonly RecordedEvent[], memory?: ProjectorMemory): Promise<void>;
}
