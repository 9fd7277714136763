import type pg from 'pg';
import { REBUILT_TABLES } from '@pf/query-service';

/** Every row of every table a rebuild writes, in a stable order: two of these are equal when two builds agree. */
export async function rebuiltRows(db: pg.Pool | pg.ClientBase): Promise<Record<string, Record<string, unknown>[]>> {
  const rows: Record<string, Record<string, unknown>[]> = {};
  for (const table of REBUILT_TABLES)
    rows[table] = (await db.query<Record<string, unknown>>(`select * from ${table} t order by t::text`)).rows;
  return rows;
}
