import type pg from 'pg';
import { START, type Position } from '@pf/events';

export interface CheckpointStore {
  load(): Promise<Position>;
  save(position: Position): Promise<void>;
}

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;
type Table = 'kafka_relay_checkpoint' | 'analytics_source_checkpoint';
const keyColumn = (table: Table) => (table === 'kafka_relay_checkpoint' ? 'name' : 'consumer');

export async function loadPosition(db: Queryable, table: Table, key: string): Promise<Position> {
  const found = await db.query<{ commit: string; prepare: string }>(
    `select commit_position::text as commit, prepare_position::text as prepare from ${table} where ${keyColumn(table)} = $1`,
    [key],
  );
  const row = found.rows[0];
  return row ? { commit: BigInt(row.commit), prepare: BigInt(row.prepare) } : START;
}

export async function savePosition(db: Queryable, table: Table, key: string, position: Position): Promise<void> {
  await db.query(
    `insert into ${table} (${keyColumn(table)}, commit_position, prepare_position) values ($1, $2, $3)
     on conflict (${keyColumn(table)}) do update
       set commit_position = excluded.commit_position, prepare_position = excluded.prepare_position, updated_at = now()`,
    [key, position.commit.toString(), position.prepare.toString()],
  );
}

/** The relay's checkpoint, one row per relay name. */
export function relayCheckpoint(pool: pg.Pool, name: string): CheckpointStore {
  return {
    load: () => loadPosition(pool, 'kafka_relay_checkpoint', name),
    save: (position) => savePosition(pool, 'kafka_relay_checkpoint', name, position),
  };
}
