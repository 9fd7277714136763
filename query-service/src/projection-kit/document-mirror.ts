import { DocumentIndex } from './document-index';
import type { DocumentProjection } from './document-projection';

/** Documents per table a mirror holds at most; past it, the table is read again (memory stays bounded). */
const MIRROR_LIMIT = 200_000;

/** Every document of one table, as its rows stand, with the index of what lookup routes ask. */
export interface MirroredTable<Doc> {
  readonly docs: Map<string, Doc | null>;
  readonly index: DocumentIndex<Doc>;
}

/**
 * Whole document tables (json-rows-projection.ts) kept in memory by their only writer, for a live rebuild whose
 * copies it filled from empty (docs/decisions/live-rebuild.md): a batch then finds the documents its events route
 * to without reading them back, by id or through the index. Valid only while every batch that wrote the tables
 * went through it: the rebuild drops it when a batch fails (its changes were rolled back, not the mirror's).
 */
export class DocumentMirrors {
  private readonly tables = new Map<string, MirroredTable<unknown> | null>();

  /** The table whole; undefined once it has outgrown the limit (then read from the table, which holds every committed row). */
  of<Doc>(projection: DocumentProjection<Doc>): MirroredTable<Doc> | undefined {
    let table = this.tables.get(projection.table) as MirroredTable<Doc> | null | undefined;
    if (table === undefined) {
      const docs = new Map<string, Doc | null>();
      table = { docs, index: new DocumentIndex(projection, docs) };
      this.tables.set(projection.table, table);
    }
    if (table && table.docs.size > MIRROR_LIMIT) {
      this.tables.set(projection.table, null);
      return undefined;
    }
    return table ?? undefined;
  }
}
