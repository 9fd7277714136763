import type pg from 'pg';
import { START, type Position } from '@pf/events';

/**
 * A process manager's state saved with the position it stands at, so a new leader (after a failover or a
 * restart) starts from there instead of replaying the whole stream. `format` names the shape of the state:
 * a snapshot of another format (older code) is ignored, and that leader replays from the start once.
 */
export interface Snapshot {
  readonly position: Position;
  readonly state: unknown;
}

export async function loadSnapshot(pool: pg.Pool, name: string, format: number): Promise<Snapshot | null> {
  const found = await pool.query<{ commit: string; prepare: string; state: unknown }>(
    `select commit_position::text as commit, prepare_position::text as prepare, state
     from process_manager_snapshots where name = $1 and format = $2`,
    [name, format],
  );
  const row = found.rows[0];
  return row ? { position: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) }, state: row.state } : null;
}

export async function saveSnapshot(pool: pg.Pool, name: string, format: number, snapshot: Snapshot): Promise<void> {
  await pool.query(
    `insert into process_manager_snapshots (name, format, commit_position, prepare_position, state) values ($1, $2, $3, $4, $5)
     on conflict (name) do update set format = excluded.format, commit_position = excluded.commit_position,
       prepare_position = excluded.prepare_position, state = excluded.state, saved_at = now()`,
    [name, format, snapshot.position.commit.toString(), snapshot.position.prepare.toString(), JSON.stringify(snapshot.state)],
  );
}

export const NO_SNAPSHOT: Snapshot = { position: START, state: null };
