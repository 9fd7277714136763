import type pg from 'pg';
import { comparePositions, formatPosition, type Position } from '@pf/events';
import { loadCheckpoint, lockCheckpoint, runOf, type EventStore, type FollowerSpec, type RecordedEvent } from '@pf/infra';
import { projectReadModels } from '../read-models';
import { READ_MODELS_PROJECTION } from './checkpoint';
import { ProjectorMemory } from '../projection-kit/memory';
import type { ReadModelProgress } from '../projection-kit/progress';

/**
 * Applies a batch and moves the checkpoint in one transaction. The checkpoint row is locked first
 * and events at or before it are skipped, so several projectors (copies of the query-service, or a
 * rebuild running beside the server) apply each event exactly once.
 *
 * Every read-your-writes read waits for this transaction, so it spends as few round trips as it can
 * around the read models' own statements: begin with the checkpoint's lock in one, the checkpoint's new
 * value with the commit in one (the same statements as infra's lockCheckpoint and saveCheckpoint, as one
 * simple query each, which is why the values are literals).
 *
 * The commit does not wait for its WAL to reach the disk (synchronous_commit off for this transaction only;
 * appends stay fully durable). Everything here is derived from the event store, and the rows and the
 * checkpoint commit together: a crash can only lose the last few batches whole, rows and checkpoint alike,
 * and the projector applies them again from the checkpoint, so each event still counts exactly once. The
 * write-then-read round trip thus waits for one flush (the append's), not two. A crash of PostgreSQL alone (this
 * process going on) is found at the next batch: `previous`, where this projector's last batch left the checkpoint,
 * is then ahead of the checkpoint found under the lock (CheckpointBehind), and the follower starts again from the
 * checkpoint rather than from where it had got, which would leave the lost batches out for good.
 */
export async function projectBatch(
  pool: pg.Pool,
  batch: readonly RecordedEvent[],
  name = READ_MODELS_PROJECTION,
  memory = new ProjectorMemory(),
  previous?: Position,
): Promise<Position> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const { checkpoint, stamp } = await beginWithCheckpointLocked(client, name);
    if (previous && comparePositions(checkpoint, previous) < 0) throw new CheckpointBehind(name, checkpoint, previous);
    memory.begin(checkpoint, stamp);
    const fresh = batch.filter((event) => comparePositions(event.position, checkpoint) > 0);
    if (fresh.length === 0) {
      await client.query('commit');
      return checkpoint;
    }
    await projectReadModels(client, fresh, memory);
    const last = fresh[fresh.length - 1]!.position;
    const saved = (await client.query(
      `insert into checkpoints (name, commit_position, prepare_position)
       values (${client.escapeLiteral(name)}, ${last.commit.toString()}, ${last.prepare.toString()})
       on conflict (name) do update
         set commit_position = excluded.commit_position, prepare_position = excluded.prepare_position, updated_at = now()
       returning updated_at::text as stamp;
       commit`,
    )) as unknown as pg.QueryResult<{ stamp: string }>[];
    memory.committed(last, saved[0]!.rows[0]!.stamp);
    return last;
  } catch (error) {
    memory.forget();
    // A connection whose rollback failed is dead or in an unknown state: destroy it, never hand it out again.
    await client.query('rollback').catch((rollbackFailed: Error) => (broken = rollbackFailed));
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * The checkpoint stands before where this projector's last batch left it: the database lost that commit (it did not
 * wait for the disk, and PostgreSQL stopped before writing it out), or the read models were emptied to be filled
 * again (projector/replay.ts). Either way the run must start again from the checkpoint.
 */
class CheckpointBehind extends Error {
  constructor(name: string, checkpoint: Position, previous: Position) {
    super(
      `The checkpoint ${name} stands at ${formatPosition(checkpoint)}, before ${formatPosition(previous)} where this projector's last batch left it: the database lost its last commits; starting again from the checkpoint`,
    );
  }
}

/**
 * `begin` and the checkpoint row locked, in one round trip; the first use creates the row (lockCheckpoint). The
 * row's updated_at comes with it, for the projector's memory.
 */
async function beginWithCheckpointLocked(client: pg.PoolClient, name: string): Promise<{ checkpoint: Position; stamp?: string }> {
  const results = (await client.query(
    `begin;
     set local synchronous_commit = off;
     select commit_position::text as commit, prepare_position::text as prepare, updated_at::text as stamp
     from checkpoints where name = ${client.escapeLiteral(name)} for update`,
  )) as unknown as pg.QueryResult<{ commit: string; prepare: string; stamp: string }>[];
  const row = results[2]!.rows[0];
  return row
    ? { checkpoint: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) }, stamp: row.stamp }
    : { checkpoint: await lockCheckpoint(client, name) };
}

/**
 * The projector as a supervised follower: each run starts from the stored checkpoint (a restart after a
 * failure resumes there), and every batch moves the read models' progress that reads wait on. Each batch checks
 * that the checkpoint still stands where the run's last batch left it (projectBatch's `previous`), and so does a
 * look at the checkpoint every CHECKPOINT_CHECK_MS, for when no events come (lost batches would otherwise stay missing
 * until the next event): a run that finds it behind fails, and the next starts from it.
 */
export function projectorFollower(pool: pg.Pool, store: EventStore, progress: ReadModelProgress): FollowerSpec {
  return {
    name: 'read-model projector',
    position: () => progress.position,
    async start() {
      const from = await loadCheckpoint(pool, READ_MODELS_PROJECTION);
      progress.restartAt(from);
      // Rows this run writes, known without reading them back while no one else writes (memory.ts).
      const memory = new ProjectorMemory();
      let applied = from;
      let fail: (error: unknown) => void = () => undefined;
      const run = await runOf((onError) => {
        fail = onError;
        return store.subscribe(
          from,
          async (batch) => {
            applied = await projectBatch(pool, batch, READ_MODELS_PROJECTION, memory, applied);
            progress.advance(applied);
          },
          { batchSize: 1000, onError },
        );
      });
      // Started once the run is, so that a subscription failing to start leaves no look behind.
      const check = setInterval(() => {
        // Where this run stood before the read: a batch committed meanwhile only moves the checkpoint further on.
        const expected = applied;
        loadCheckpoint(pool, READ_MODELS_PROJECTION).then(
          (stored) => comparePositions(stored, expected) < 0 && fail(new CheckpointBehind(READ_MODELS_PROJECTION, stored, expected)),
          // The database is away: the subscription meets that too, and the next look tries again.
          () => undefined,
        );
      }, CHECKPOINT_CHECK_MS);
      check.unref();
      const stopChecking = () => clearInterval(check);
      run.done.then(stopChecking, stopChecking);
      return {
        ...run,
        close: async () => {
          stopChecking();
          await run.close();
        },
      };
    },
  };
}

/** How often a running projector looks whether its checkpoint has gone back, events or none (projectorFollower). */
const CHECKPOINT_CHECK_MS = 2_000;
