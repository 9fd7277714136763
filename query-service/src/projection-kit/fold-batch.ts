import type pg from 'pg';
import { foldInto, type DomainEvent, type View } from '@pf/events';
import type { RecordedEvent } from '@pf/infra';
import { bulkFillOf, type BulkTarget } from './bulk-fill';

/**
 * `make` of an event, made the first time any read model asks and kept on the event in a property of its own, so
 * every read model folding the event shares it (a WeakMap lookup per read model cost more than making the value:
 * docs/decisions/live-rebuild.md).
 */
function oncePerEvent<T>(make: (recorded: RecordedEvent) => T): (recorded: RecordedEvent) => T {
  const key = Symbol('oncePerEvent');
  return (recorded) => ((recorded as RecordedEvent & Record<symbol, T | undefined>)[key] ??= make(recorded));
}

/**
 * The event's recorded time as ISO text (in a profile of a rebuild, making it again for each read model was 0.5 s
 * of 200,000 events).
 */
export const recordedAtOf = oncePerEvent((recorded) => recorded.recordedAt.toISOString());

/** The entities of a view that a batch touches, to load before folding it. */
export function keysOf<K>(view: View<K, unknown>, batch: readonly RecordedEvent[]): K[] {
  const keys = new Set<K>();
  for (const recorded of batch) {
    const key = view.keyOf(recorded);
    if (key !== null) keys.add(key);
  }
  return [...keys];
}

/**
 * Folds a batch, in order, into the entities loaded for it with the view's shared evolve, and returns
 * those the batch changed (new ones included) as they stand after it. `each` sees every event with the
 * entity as it stands just after it (a projection derives rows that never change, such as messages, there).
 */
export function foldBatch<K, S>(
  view: View<K, S>,
  batch: readonly RecordedEvent[],
  // NoInfer: the view alone names K and S, so an empty `new Map()` takes its types rather than making them any.
  stored: ReadonlyMap<NoInfer<K>, NoInfer<S>>,
  each?: (state: S | null, event: DomainEvent, recorded: RecordedEvent, recordedAt: string) => void,
): S[] {
  const entities = new Map(stored);
  for (const event of batch) {
    const recordedAt = recordedAtOf(event);
    const state = foldInto(entities, view, event, recordedAt);
    each?.(state, event, event, recordedAt);
  }
  return [...entities].filter(([key, state]) => stored.get(key) !== state).map(([, state]) => state);
}

/**
 * Runs `sql` over the rows as one relation `v(v1, v2, ..., ord)` built by unnest (one array parameter per
 * column), so a batch is written in one statement whatever its size; nothing when there are no rows. `bulk` names
 * the table and key the statement inserts into: while a live rebuild fills that table from empty, the rows with
 * keys not yet written are copied in and only the rest go through the statement (bulk-fill.ts).
 */
export async function writeRows(
  client: pg.ClientBase,
  given: readonly unknown[][],
  types: readonly string[],
  sql: (relation: string) => string,
  bulk?: BulkTarget,
): Promise<void> {
  const fill = bulk && given.length > 0 ? bulkFillOf(client) : undefined;
  const rows = fill ? await fill.copyNew(client, bulk!, given) : given;
  if (rows.length === 0) return;
  const columns = types.map((_, index) => arrayLiteral(rows.length, (r) => rows[r]![index]));
  const args = types.map((type, index) => `$${index + 1}::${type}[]`).join(', ');
  const names = types.map((_, index) => `v${index + 1}`).join(', ');
  await client.query(sql(`unnest(${args}) with ordinality as v(${names}, ord)`), columns);
}

/**
 * `length` values as a PostgreSQL array literal. node-postgres builds the same literal from an array, but runs two
 * regular expressions over every element: over JSON documents, full of quotes, that was most of what a rebuild
 * spent writing its statements (docs/decisions/live-rebuild.md). An element with a quote or a backslash is
 * escaped by JSON.stringify, whose escapes are the literal's when the text holds no control character nor
 * surrogate (JSON text never holds the first; JSON.stringify would write either as an escape the literal reads otherwise).
 */
export function arrayLiteral(length: number, valueAt: (index: number) => unknown): string {
  let literal = '{';
  for (let r = 0; r < length; r++) {
    if (r > 0) literal += ',';
    const value = valueAt(r);
    if (value === null || value === undefined) literal += 'NULL';
    else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') literal += String(value);
    else literal += quoted(typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value));
  }
  return `${literal}}`;
}

/**
 * A text[] as its array literal, for one element of an array parameter (a row's owners): the statement casts it
 * with `::text[]`, cheaper than a JSON array taken apart by jsonb_array_elements_text for every row.
 */
export const textArrayLiteral = (values: readonly string[]): string => arrayLiteral(values.length, (index) => values[index]);

function quoted(text: string): string {
  if (!/["\\]/.test(text)) return `"${text}"`;
  // eslint-disable-next-line no-control-regex -- the control characters are what it looks for
  return /[\u0000-\u001f\ud800-\udfff]/.test(text) ? `"${text.replace(/["\\]/g, '\\$&')}"` : JSON.stringify(text);
}

export const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
export const iso = (value: Date) => value.toISOString();
