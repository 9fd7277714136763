import type pg from 'pg';
import { START, type Position } from '@pf/events';
import type { Migration } from './migrate';

/**
 * Where every follower of the event stream keeps its place: the read-model projector, the automated
 * agents, the Kafka relay and the analytics consumers, one row each. Positions are stored as numeric:
 * PostgreSQL transaction ids and EventStoreDB log positions are unsigned 64-bit.
 */
export const checkpointMigrations: Migration[] = [
  {
    name: 'infra/001-checkpoints',
    sql: `
      create table checkpoints (
        name text primary key,
        commit_position numeric(20, 0) not null,
        prepare_position numeric(20, 0) not null,
        updated_at timestamptz not null default now()
      );
    `,
  },
];

export type Queryable = Pick<pg.Pool | pg.ClientBase, 'query'>;

/** Function properties: a relay's checkpoint may be put together from two stores' functions. */
export interface CheckpointStore {
  readonly load: () => Promise<Position>;
  readonly save: (position: Position) => Promise<void>;
}

/** A row's `commit_position::text as commit, prepare_position::text as prepare`; START when there is no row. */
export const toPosition = (row: { commit: string; prepare: string } | undefined): Position =>
  row ? { commit: BigInt(row.commit), prepare: BigInt(row.prepare) } : START;

export async function loadCheckpoint(db: Queryable, name: string): Promise<Position> {
  const found = await db.query<{ commit: string; prepare: string }>(
    'select commit_position::text as commit, prepare_position::text as prepare from checkpoints where name = $1',
    [name],
  );
  return toPosition(found.rows[0]);
}

export async function saveCheckpoint(db: Queryable, name: string, position: Position): Promise<void> {
  await db.query(
    `insert into checkpoints (name, commit_position, prepare_position) values ($1, $2, $3)
     on conflict (name) do update
       set commit_position = excluded.commit_position, prepare_position = excluded.prepare_position, updated_at = now()`,
    [name, position.commit.toString(), position.prepare.toString()],
  );
}

/** Reads the checkpoint and locks its row until the transaction ends, so concurrent followers take turns. */
export async function lockCheckpoint(client: pg.ClientBase, name: string): Promise<Position> {
  const select = 'select commit_position::text as commit, prepare_position::text as prepare from checkpoints where name = $1 for update';
  const found = await client.query<{ commit: string; prepare: string }>(select, [name]);
  if (found.rows[0]) return toPosition(found.rows[0]);
  // First use: create the row (a concurrent first use may win the insert), then lock it.
  await client.query('insert into checkpoints (name, commit_position, prepare_position) values ($1, 0, 0) on conflict do nothing', [name]);
  return toPosition((await client.query<{ commit: string; prepare: string }>(select, [name])).rows[0]);
}

export function checkpointStore(db: Queryable, name: string): CheckpointStore {
  return { load: () => loadCheckpoint(db, name), save: (position) => saveCheckpoint(db, name, position) };
}
