import type pg from 'pg';
import { START, type Position } from '@pf/events';

export const READ_MODELS_PROJECTION = 'read-models';

/** Locks and reads the checkpoint row for the rest of the transaction (creating it at START). */
export async function lockCheckpoint(client: pg.ClientBase, name: string): Promise<Position> {
  await client.query(
    `insert into projection_checkpoints (name, commit_position, prepare_position) values ($1, 0, 0) on conflict do nothing`,
    [name],
  );
  const result = await client.query<{ commit_position: string; prepare_position: string }>(
    'select commit_position, prepare_position from projection_checkpoints where name = $1 for update',
    [name],
  );
  const row = result.rows[0]!;
  return { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) };
}

export async function storeCheckpoint(client: pg.ClientBase, name: string, position: Position): Promise<void> {
  await client.query(
    'update projection_checkpoints set commit_position = $2, prepare_position = $3, updated_at = now() where name = $1',
    [name, position.commit.toString(), position.prepare.toString()],
  );
}

export async function readCheckpoint(pool: pg.Pool, name: string): Promise<Position> {
  const result = await pool.query<{ commit_position: string; prepare_position: string }>(
    'select commit_position, prepare_position from projection_checkpoints where name = $1',
    [name],
  );
  const row = result.rows[0];
  return row ? { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) } : START;
}
