import type pg from 'pg';

/**
 * The ids a decision allocated, stored under the key of what caused it: a redelivered event finds
 * them again instead of allocating new ones (a second conversation for the same match, say).
 */
export async function decidedIds<T extends object>(pool: pg.Pool, key: string, allocate: () => Promise<T>): Promise<T> {
  const existing = await pool.query<{ ids: T }>('select ids from process_manager_decisions where key = $1', [key]);
  if (existing.rows[0]) return existing.rows[0].ids;
  const ids = await allocate();
  const inserted = await pool.query<{ ids: T }>(
    `insert into process_manager_decisions (key, ids) values ($1, $2) on conflict (key) do nothing returning ids`,
    [key, JSON.stringify(ids)],
  );
  if (inserted.rows[0]) return inserted.rows[0].ids;
  const winner = await pool.query<{ ids: T }>('select ids from process_manager_decisions where key = $1', [key]);
  return winner.rows[0]!.ids;
}
