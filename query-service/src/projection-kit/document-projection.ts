import type { DomainEvent } from '@pf/events';

/** A route that names its rows by what they hold rather than by id. */
export type LookupRoute = { where: { field: string; value: string } } | { hasKey: { field: string; key: string } } | { owner: string };

/**
 * Which rows an event changes: by their ids, the rows whose document has `field` equal to `value`, the rows
 * whose document's object `field` has the key `key`, or every row a user may see (`owner`: Delete Account).
 */
export type Route = { ids: readonly string[] } | LookupRoute;

/**
 * A read model whose rows are JSON documents, one per id, each with the users who may see it. Its meaning is
 * the pure `evolve` (null: the row goes); json-rows-projection.ts only loads, folds and saves. Used by the deals,
 * documents, leads and matches screens, whose rows each gather facts from several streams.
 */
export interface DocumentProjection<Doc> {
  readonly name: string;
  readonly table: string;
  /** Document fields that `where` routes name (each gets an index). */
  readonly lookupFields: readonly string[];
  /** Object fields that `hasKey` routes name (each gets a GIN index). */
  readonly keyFields?: readonly string[];
  route(event: DomainEvent): Route[];
  evolve(doc: Doc | null, event: DomainEvent, at: string, id: string): Doc | null;
  owners(doc: Doc): readonly string[];
}
