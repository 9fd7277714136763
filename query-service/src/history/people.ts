import type pg from 'pg';
import type { HistoryRecord } from './load-history';

/** The people who acted in a loaded history, read once per history (a scrub step asks for the names again). */
const actorsOf = new WeakMap<readonly HistoryRecord[], string[]>();

function actors(records: readonly HistoryRecord[]): string[] {
  let ids = actorsOf.get(records);
  if (!ids) {
    ids = [
      ...new Set(records.flatMap(({ recorded }) => (recorded.metadata.actor.kind === 'user' ? [recorded.metadata.actor.userId] : []))),
    ];
    actorsOf.set(records, ids);
  }
  return ids;
}

/**
 * Names of the people who acted, from their accounts (identity, not a read model): the name alone, never with
 * an id beside it (the actor keeps the id for an audit); a person whose account is gone is "A former user".
 */
export async function personNames(pool: pg.Pool, records: readonly HistoryRecord[]): Promise<(userId: string) => string> {
  const ids = actors(records);
  const names = new Map<string, string>();
  if (ids.length) {
    const valid = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
    const result = await pool.query<{ id: string; first_name: string | null; last_name: string | null }>(
      'select id::text, first_name, last_name from users where id = any($1::uuid[])',
      [valid],
    );
    for (const row of result.rows) {
      const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
      names.set(row.id, name || 'A person with no name given');
    }
  }
  return (userId) => names.get(userId) ?? 'A former user';
}
