import type { z } from 'zod';
import { cursorKeys } from '@pf/events';
import { Invalid } from '@pf/infra';
import type pg from 'pg';

/**
 * Cursors of the paged lists (events/src/paging.ts): the last row's sort key, base64url-encoded so a client
 * treats it as opaque. A cursor that does not decode to the key's shape (`cursorKeyParts`: ids in range, real
 * times, storable text) is the client's mistake: 400 naming what is wrong, before PostgreSQL sees it.
 */
export const encodeCursor = (key: readonly (string | number)[]) => Buffer.from(JSON.stringify(key)).toString('base64url');

export function decodeCursor<Key extends z.ZodType>(cursor: string | undefined, shape: Key): z.infer<Key> | null {
  if (!cursor) return null;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new Invalid('cursor: cursor must be a cursor from a previous page');
  }
  const parsed = shape.safeParse(key);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const why =
      issue && issue.code !== 'invalid_type' && issue.code !== 'too_big' && issue.code !== 'too_small' ? ` (${issue.message})` : '';
    throw new Invalid(`cursor: cursor must be a cursor from a previous page${why}`);
  }
  return parsed.data;
}

/** `%text%` for ILIKE, with the pattern characters in the search taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of a board whose rows are JSON documents (deals, documents, leads, matches): the rows `where` keeps,
 * highest `sort` first and, among equal ones, lowest `tie` first (the order of the board's unpaged list), after
 * the cursor's row; with how many match in all. The cursor is the last row's [sort, tie].
 */
export interface BoardPageSpec {
  readonly columns: string;
  /** The board's table (aliased `b`) and any joins. */
  readonly from: string;
  /** The search and filters, over `values` ($1…). */
  readonly where: string;
  readonly values: readonly unknown[];
  /** The order: an expression of type `sortType`, descending; then a unique text expression, ascending. */
  readonly sort: string;
  readonly sortType: 'text' | 'bigint';
  readonly tie: string;
}

export async function readBoardPage<Row extends pg.QueryResultRow>(
  pool: pg.Pool,
  spec: BoardPageSpec,
  cursor: string | undefined,
  limit: number,
): Promise<{ rows: Row[]; nextCursor: string | null; total: number }> {
  const after = decodeCursor(cursor, spec.sortType === 'text' ? cursorKeys.boardByText : cursorKeys.boardByNumber);
  const n = spec.values.length;
  const from = `from ${spec.from} where (${spec.where})`;
  const [rows, count] = await Promise.all([
    pool.query<Row & { sort_key: string | number; tie_key: string }>(
      `select ${spec.columns}, ${spec.sort} as sort_key, ${spec.tie} as tie_key ${from}
       and ($${n + 1}::${spec.sortType} is null or ${spec.sort} < $${n + 1}::${spec.sortType}
                  or (${spec.sort} = $${n + 1}::${spec.sortType} and ${spec.tie} > $${n + 2}::text))
       order by ${spec.sort} desc, ${spec.tie} limit $${n + 3}`,
      [...spec.values, after?.[0] ?? null, after?.[1] ?? null, limit + 1],
    ),
    pool.query<{ total: number }>(`select count(*)::int as total ${from}`, [...spec.values]),
  ]);
  const kept = rows.rows.slice(0, limit);
  const last = kept[kept.length - 1];
  const sortValue = (row: { sort_key: string | number }) => (spec.sortType === 'bigint' ? Number(row.sort_key) : row.sort_key);
  return {
    rows: kept,
    nextCursor: rows.rows.length > limit && last ? encodeCursor([sortValue(last), last.tie_key]) : null,
    total: count.rows[0]!.total,
  };
}
