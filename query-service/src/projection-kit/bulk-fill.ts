import type pg from 'pg';
import { finished } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * Where a statement of `writeRows` inserts, for writing its new rows by `COPY` instead while a table is filled
 * from empty by one writer (docs/decisions/live-rebuild.md, "Rows copied in").
 */
export interface BulkTarget {
  readonly table: string;
  /** The table's columns, in the order of the rows' values. */
  readonly columns: readonly string[];
  /** Positions in a row of the columns of the unique key the statement's conflict clause names. */
  readonly key: readonly number[];
  /** What the statement does to a row whose key is stored: nothing (`do nothing`), or its own update. */
  readonly whenStored: 'nothing' | 'statement';
}

/**
 * How many keys of one table a fill remembers; past it, that table's rows all go through their statements again
 * (its `on conflict` handles stored keys as it always did), so memory stays bounded on a log of any size.
 */
const MAX_KEYS_PER_TABLE = 1_000_000;

/**
 * The tables one writer fills from empty (a live rebuild's lane over the fresh copies it alone writes), with the
 * key of every row it has written to each. A row whose key it has not written cannot conflict, so it is copied in
 * (`COPY`: about half of PostgreSQL's time per row of an `insert … on conflict` over unnest, measured on the
 * messages); a row whose key it has written goes through the statement, whose conflict clause says what happens.
 * A key remembered for a row that is not there (a batch rolled back) only sends a row through its statement; the
 * reverse cannot happen while nobody else writes the tables, which is why a fill is dropped at the first rollback.
 */
export class BulkFill {
  private readonly written = new Map<string, Set<string> | null>();

  constructor(private readonly maxKeysPerTable = MAX_KEYS_PER_TABLE) {}

  /**
   * Copies the rows whose key this fill has not written; returns the rows left for the statement (stored keys,
   * when the statement updates them; all of them once the table's keys are past the limit).
   */
  async copyNew(client: pg.ClientBase, target: BulkTarget, rows: readonly unknown[][]): Promise<unknown[][]> {
    let keys = this.written.get(target.table);
    if (keys === undefined) this.written.set(target.table, (keys = new Set()));
    if (keys === null) return [...rows];
    const fresh: unknown[][] = [];
    const stored: unknown[][] = [];
    for (const row of rows) {
      const key = target.key.length === 1 ? keyText(row[target.key[0]!]) : target.key.map((index) => keyText(row[index])).join('\u0000');
      if (!keys.has(key)) {
        keys.add(key);
        fresh.push(row);
      } else if (target.whenStored === 'statement') stored.push(row);
    }
    if (keys.size > this.maxKeysPerTable) this.written.set(target.table, null);
    if (fresh.length > 0) await copyRows(client, target, fresh);
    return stored;
  }
}

/** A key's value as text: a time as its ISO text whichever way it came (a Date read back, or the text a fold made). */
const keyText = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value));

const fills = new WeakMap<pg.ClientBase, BulkFill>();

/** Runs `work` with `fill` answering for what `writeRows` writes on `client` meanwhile. */
export async function fillingWith<T>(client: pg.ClientBase, fill: BulkFill, work: () => Promise<T>): Promise<T> {
  fills.set(client, fill);
  try {
    return await work();
  } finally {
    fills.delete(client);
  }
}

/** The fill answering for `client`'s writes, if one is. */
export const bulkFillOf = (client: pg.ClientBase): BulkFill | undefined => fills.get(client);

/** The rows in COPY's text format, one line each, then one COPY statement. */
async function copyRows(client: pg.ClientBase, target: BulkTarget, rows: readonly unknown[][]): Promise<void> {
  let text = '';
  for (const row of rows) {
    for (let index = 0; index < target.columns.length; index++) {
      if (index > 0) text += '\t';
      text += copyValue(row[index]);
    }
    text += '\n';
  }
  const stream = client.query(copyFrom(`copy ${target.table} (${target.columns.join(', ')}) from stdin`));
  stream.end(text);
  await finished(stream);
}

/** A value as COPY's text format reads it: the same text `arrayLiteral` gives the unnest statements. */
function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return escaped(typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value));
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Backslash, newline, carriage return and tab are COPY's own; each is written as its escape. */
const escaped = (text: string): string => (/[\\\n\r\t]/.test(text) ? text.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c]!) : text);
