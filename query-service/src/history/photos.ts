import type pg from 'pg';
import type { HistoryRecord } from './load-history';

/**
 * The profile photos of the people who acted (docs/behaviour/settings.md, "Profile photo"): the id of each one's
 * current photo, which the console draws beside their messages. None for a person without one or whose account
 * is gone.
 */
export async function personPhotos(pool: pg.Pool, records: readonly HistoryRecord[]): Promise<(userId: string) => string | null> {
  const ids = [
    ...new Set(records.flatMap(({ recorded }) => (recorded.metadata.actor.kind === 'user' ? [recorded.metadata.actor.userId] : []))),
  ].filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  const photos = new Map<string, string>();
  if (ids.length) {
    const result = await pool.query<{ id: string; photo_id: string }>(
      'select id::text, photo_id::text from users where id = any($1::uuid[]) and photo_id is not null',
      [ids],
    );
    for (const row of result.rows) photos.set(row.id, row.photo_id);
  }
  return (userId) => photos.get(userId) ?? null;
}
