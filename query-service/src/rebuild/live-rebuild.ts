import pg from 'pg';
import { comparePositions, START, type Position } from '@pf/events';
import { advanceAppliedThrough, loadCheckpoint, lockCheckpoint, saveCheckpoint, type EventStore, type RecordedEvent } from '@pf/infra';
import { earliest, foldInLanes, Lane } from './lanes';
import { planLanes, REBUILD_PARTS, selectParts } from './parts';
import {
  analyzeIndexedColumns,
  createMissingIndexes,
  createShadowTables,
  dropSchema,
  REBUILD_SCHEMA,
  restoreAutovacuum,
  restorePendingLists,
  RETIRED_SCHEMA,
  shapeOf,
  swapTables,
  tablesIn,
  useSchema,
} from './shadow';

/**
 * The live rebuild (docs/decisions/live-rebuild.md). The read models are built again beside the live ones, in a
 * schema of their own, by the read models' own projection code, in short committed batches, while the product
 * keeps reading the live tables and its projector keeps them current. Once the copy has caught up, one short
 * transaction holds the followers' checkpoints (the live projector waits for it, nothing else does), applies
 * the last few events, puts the new tables in place of the old and moves the checkpoints; the old tables are
 * dropped after its commit. An interrupted rebuild leaves the live tables as they were and resumes from its
 * last committed batch (or starts again when the tables' shape changed meanwhile).
 *
 * Every batch transaction is short on purpose: while any transaction that has written is open, followers of
 * the event log cannot see events appended after it began (the log is read up to the oldest open
 * transaction), so one long transaction would freeze the product's pushes the way the old rebuild did.
 */

export interface RebuildProgress {
  readonly phase: 'preparing' | 'building' | 'switching' | 'done';
  /** Events folded so far (this run). */
  readonly done: number;
  /** Events to fold, as counted when the rebuild began (it grows if the log outgrows the count). */
  readonly total: number;
  readonly eventsPerSecond: number;
  /** At the current rate; null until there is one. */
  readonly secondsLeft: number | null;
  readonly parts: readonly string[];
  /** Whether this run took up an interrupted one. */
  readonly resumed: boolean;
}

export interface LiveRebuildOptions {
  /** Read models to rebuild (with the ones they read); all of them and the analytics facts when absent. */
  readonly only?: readonly string[];
  /** Events per batch transaction (at most, while the product's followers are live: see `transactionMs`). */
  readonly batchSize?: number;
  /**
   * While another process follows the log (a running product), each batch transaction holds back what its
   * followers can see for as long as it stays open: batches are then sized to last about this long.
   */
  readonly transactionMs?: number;
  /** How many batch transactions run side by side (independent read models folded in parallel). */
  readonly lanes?: number;
  readonly onProgress?: (progress: RebuildProgress) => void;
  /** Stops between batches; what was committed is taken up by the next rebuild. */
  readonly signal?: AbortSignal;
  /** Keep every index up to date from the start even with no one following the log (measurements). */
  readonly keepIndexes?: boolean;
  /**
   * Copy the new rows of the fresh tables in (the default: projection-kit/bulk-fill.ts); false writes every row through
   * the read models' statements, as the projector does (tests compare the two).
   */
  readonly copyRows?: boolean;
  /** Called in the switch's transaction once the live followers are held (tests: to act at that moment). */
  readonly beforeSwitch?: () => Promise<void>;
}

export interface RebuildResult {
  /** Events folded by this run (an interrupted run's batches not included). */
  readonly applied: number;
  readonly seconds: number;
  readonly parts: readonly string[];
  readonly resumed: boolean;
  /** How long the switch held the live followers. */
  readonly switchMs: number;
}

/** Another rebuild holds the rebuild lock (HTTP 409 from the admin endpoint). */
export class RebuildRunning extends Error {
  constructor() {
    super('A rebuild of the read models is already running');
  }
}

const REBUILD_LOCK = "hashtext('property-finance:read-model-rebuild')";
export const DEFAULT_REBUILD_BATCH = 5000;
export const DEFAULT_REBUILD_LANES = 4;
export const DEFAULT_TRANSACTION_MS = 25;
const SWITCH_ATTEMPTS = 5;
/** The events as folds need them (ReadAllOptions.lean): without their links in the hash chain, which no fold reads. */
const LEAN = { lean: true } as const;
/** How many batches the log is read ahead of the slowest lane. */
const LANE_BATCHES_AHEAD = 2;

const at = (row: { commit: string; prepare: string }): Position => ({ commit: BigInt(row.commit), prepare: BigInt(row.prepare) });
const notAfter = (cap: Position | null) => (event: RecordedEvent) => cap === null || comparePositions(event.position, cap) <= 0;
const latest = (positions: Iterable<Position>) => [...positions].reduce((best, p) => (comparePositions(p, best) > 0 ? p : best), START);

/** A pool of the caller's settings for the rebuild's own connections (lanes, the switch, the lock). */
function rebuildPool(pool: pg.Pool, size: number): pg.Pool {
  const own = new pg.Pool({ ...(pool as unknown as { options: pg.PoolConfig }).options, max: size });
  own.on('error', () => undefined);
  own.on('connect', (client) => client.on('error', () => undefined));
  return own;
}

/**
 * Rebuilds the read models (and the analytics facts) while the product runs; see the module comment. Resolves
 * once the rebuilt tables are live; rejects with RebuildRunning when another rebuild holds the lock.
 */
export async function liveRebuild(pool: pg.Pool, store: EventStore, options: LiveRebuildOptions = {}): Promise<RebuildResult> {
  const parts = selectParts(options.only);
  const names = parts.map((p) => p.name);
  const tables = parts.flatMap((p) => p.tables);
  const batchSize = options.batchSize ?? DEFAULT_REBUILD_BATCH;
  const plan = planLanes(parts, options.lanes ?? DEFAULT_REBUILD_LANES);
  // A checkpoint whose every part is rebuilt moves to wherever the rebuild got; one with parts left out (only
  // some read models) keeps its place, so the rebuild stops exactly where the live tables beside it stand.
  const checkpoints = [...new Set(parts.map((p) => p.checkpoint))].sort();
  const consumers = new Map(parts.flatMap((p) => (p.consumer ? [[p.checkpoint, p.consumer] as const] : [])));
  const partial = checkpoints.filter((name) => REBUILD_PARTS.some((p) => p.checkpoint === name && !names.includes(p.name)));

  const own = rebuildPool(pool, plan.length + 2);
  const guard = await own.connect();
  let guardBroken: Error | undefined;
  const started = performance.now();
  let done = 0;
  let total = 0;
  let resumed = false;
  const report = (phase: RebuildProgress['phase']) => {
    const seconds = (performance.now() - started) / 1000;
    const eventsPerSecond = seconds > 0 ? done / seconds : 0;
    total = Math.max(total, done);
    options.onProgress?.({
      phase,
      done,
      total,
      eventsPerSecond,
      secondsLeft: eventsPerSecond > 0 ? (total - done) / eventsPerSecond : null,
      parts: names,
      resumed,
    });
  };
  try {
    const locked = await guard.query<{ locked: boolean }>(`select pg_try_advisory_lock(${REBUILD_LOCK}) as locked`);
    if (!locked.rows[0]!.locked) throw new RebuildRunning();
    report('preparing');

    // Followers of the log in other sessions (a running product's listening connection): then batches are kept
    // short, and the indexes kept up to date from the start (built at the end, their build would be one long
    // transaction); with no one following, they are built once the rows are in.
    const followed = (
      await guard.query<{ live: boolean }>(
        `select exists (select 1 from pg_stat_activity where datname = current_database() and application_name = 'event-notifier') as live`,
      )
    ).rows[0]!.live;

    // The rebuild schema: taken up when it holds these parts at the live tables' shape, else made afresh.
    const positions = new Map<string, Position>();
    await guard.query('begin');
    await dropSchema(guard, RETIRED_SCHEMA);
    const shape = await shapeOf(guard, tables);
    const existing = await tablesIn(guard, REBUILD_SCHEMA);
    if (existing.includes('rebuild_meta')) {
      const meta = await guard.query<{ parts: string[]; shape: string }>(`select parts, shape from ${REBUILD_SCHEMA}.rebuild_meta`);
      const row = meta.rows[0];
      resumed = !!row && row.shape === shape && row.parts.join(',') === names.join(',') && tables.every((t) => existing.includes(t));
    }
    if (resumed) {
      const stored = await guard.query<{ part: string; commit: string; prepare: string }>(
        `select part, commit_position::text as commit, prepare_position::text as prepare from ${REBUILD_SCHEMA}.rebuild_positions`,
      );
      for (const row of stored.rows) positions.set(row.part, at(row));
    } else {
      await dropSchema(guard, REBUILD_SCHEMA);
      await guard.query(`create schema ${REBUILD_SCHEMA}`);
      await createShadowTables(guard, REBUILD_SCHEMA, tables, {
        deferIndexes: !followed && !options.keepIndexes,
        withoutAutovacuum: !followed,
        keep: new Set(parts.flatMap((p) => p.foldIndexes)),
      });
      await guard.query(
        `create table ${REBUILD_SCHEMA}.rebuild_meta (parts text[] not null, shape text not null, started_at timestamptz not null default now());
         create table ${REBUILD_SCHEMA}.rebuild_positions (part text primary key, commit_position numeric(20, 0) not null, prepare_position numeric(20, 0) not null)`,
      );
      await guard.query(`insert into ${REBUILD_SCHEMA}.rebuild_meta (parts, shape) values ($1, $2)`, [names, shape]);
      await guard.query(`insert into ${REBUILD_SCHEMA}.rebuild_positions select unnest($1::text[]), 0, 0`, [names]);
      for (const name of names) positions.set(name, START);
    }
    await guard.query('commit');

    const transactionMs = options.transactionMs ?? DEFAULT_TRANSACTION_MS;
    let size = followed ? Math.min(batchSize, 200) : batchSize;
    const lanes = plan.map((members) => new Lane(members, positions, !resumed, options.copyRows ?? true));
    const from = earliest(lanes.map((lane) => lane.position));
    // Counted beside the first batches rather than before them (on a large log the count is a scan of its own);
    // until it answers, progress shows what is done as the total.
    const counted = countEventsAfter(guard, from).then((count) => void (total = Math.max(total, count)));
    // Awaited once the catch-up is done; a failure before then is not left unhandled.
    counted.catch(() => undefined);
    report('building');

    const clients = await Promise.all(lanes.map(() => own.connect()));
    try {
      for (let attempt = 1; ; attempt += 1) {
        await catchUp();
        await counted;
        options.signal?.throwIfAborted();
        // The indexes left out while the rows went in, then planner statistics for the new rows' indexed columns before
        // anyone reads them (the rest is autovacuum's); the tables shared out to the lanes' connections, so they are
        // built and analysed side by side.
        await Promise.all(
          clients.map(async (client, index) => {
            for (const table of tables.filter((_, t) => t % clients.length === index)) {
              await createMissingIndexes(client, REBUILD_SCHEMA, [table]);
              await analyzeIndexedColumns(client, REBUILD_SCHEMA, table);
            }
          }),
        );
        await restorePendingLists(guard, REBUILD_SCHEMA);
        await restoreAutovacuum(guard, REBUILD_SCHEMA);
        // What was appended while the indexes and analyses ran (a running product's events) goes in committed
        // batches too, so that the switch, which holds the live followers, applies only the last few.
        await catchUp();
        options.signal?.throwIfAborted();
        report('switching');
        try {
          const switchMs = await switchIn();
          await dropSchema(guard, RETIRED_SCHEMA);
          await dropSchema(guard, REBUILD_SCHEMA);
          report('done');
          return { applied: done, seconds: (performance.now() - started) / 1000, parts: names, resumed, switchMs };
        } catch (error) {
          // Held up by a long reader (lock_timeout) or a busy log: everything of the switch rolled back; catch up again.
          if (attempt >= SWITCH_ATTEMPTS || !isRetryable(error)) throw error;
          lanes.forEach((lane) => lane.forget());
        }
      }
    } finally {
      clients.forEach((client) => client.release());
    }

    /** Committed batches, the lanes side by side, until the copy is at the head (or at the live tables' place). */
    async function catchUp(): Promise<void> {
      const caps = async () => (partial.length > 0 ? earliest(await Promise.all(partial.map((name) => loadCheckpoint(own, name)))) : null);
      // The slowest batch transaction since the last read: while a product follows the log, it sizes the next batch.
      let slowest = 0;
      await foldInLanes({
        lanes,
        clients,
        from: earliest(lanes.map((lane) => lane.position)),
        ahead: LANE_BATCHES_AHEAD,
        signal: options.signal,
        size: () => {
          if (followed && slowest > 0)
            size = Math.max(100, Math.min(batchSize, Math.round(size * Math.min(2, Math.max(0.25, transactionMs / Math.max(1, slowest))))));
          slowest = 0;
          return size;
        },
        read: async (position, limit) => {
          const read = await store.readAll(position, limit, LEAN);
          const events = read.filter(notAfter(await caps()));
          // At the head (or the cap): the rest is the switch's.
          return { events, atHead: events.length < read.length || read.length < limit };
        },
        took: (ms) => (slowest = Math.max(slowest, ms)),
        applied: (events) => {
          done += events;
          report('building');
        },
      });
    }

    /** The switch: one transaction, the live followers held only for it. Returns how long it held them. */
    async function switchIn(): Promise<number> {
      const client = await own.connect();
      let broken: Error | undefined;
      const staged = new Map(positions);
      try {
        await client.query('begin');
        await client.query(`set local lock_timeout = '2s'`);
        const held = performance.now();
        const live = new Map<string, Position>();
        for (const name of checkpoints) live.set(name, await lockCheckpoint(client, name));
        await useSchema(client, REBUILD_SCHEMA);
        const cap = partial.length > 0 ? earliest(partial.map((name) => live.get(name)!)) : null;
        // The last events, under the lock, in this transaction.
        let position = earliest([...staged.values()]);
        let applied = 0;
        for (;;) {
          const batch = (await store.readAll(position, batchSize, LEAN)).filter(notAfter(cap));
          if (batch.length === 0) break;
          for (const lane of lanes) await lane.applyIn(client, batch, staged);
          applied += batch.length;
          position = batch[batch.length - 1]!.position;
        }
        const reached = latest(staged.values());
        await options.beforeSwitch?.();
        for (const name of checkpoints) {
          const livePosition = live.get(name)!;
          const target = partial.includes(name) ? livePosition : reached;
          if (comparePositions(target, livePosition) < 0 || comparePositions(reached, target) !== 0) {
            throw new Error(`The rebuilt tables stand at ${String(reached.commit)}/${String(reached.prepare)}, not at ${name}'s place`);
          }
          // An analytics consumer skips what it has applied (a Kafka consumer may see an event again): the rebuilt
          // rows hold every event up to the target, so its watermark moves there, one row rather than a claim per
          // event (docs/decisions/live-rebuild.md); also when its checkpoint already stood there, as from Kafka
          // events below the checkpoint may not have arrived yet.
          const consumer = consumers.get(name);
          if (consumer) await advanceAppliedThrough(client, consumer, target);
          // Saved even when unchanged: its new updated_at tells a running projector its memory is stale (projection-kit/memory.ts).
          await saveCheckpoint(client, name, target);
        }
        await client.query(`create schema ${RETIRED_SCHEMA}`);
        await client.query('set local search_path = public');
        await swapTables(client, REBUILD_SCHEMA, tables);
        await client.query('commit');
        done += applied;
        return performance.now() - held;
      } catch (error) {
        await client.query('rollback').catch((failed: Error) => (broken = failed));
        throw error;
      } finally {
        client.release(broken);
      }
    }
  } catch (error) {
    if (error instanceof RebuildRunning) throw error;
    await guard.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await guard.query(`select pg_advisory_unlock(${REBUILD_LOCK})`).catch((failed: Error) => (guardBroken = failed));
    guard.release(guardBroken);
    await own.end();
  }
}

/** lock_timeout, a deadlock or a serialisation failure: the switch can be tried again after another catch-up. */
function isRetryable(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '55P03' || code === '40P01' || code === '40001' || code === '57014';
}

/** Whether the store keeps its events in this database (EventStoreDB keeps them elsewhere). */
async function hasEventsTable(client: pg.ClientBase): Promise<boolean> {
  const exists = await client.query<{ yes: boolean }>(`select to_regclass('public.events') is not null as yes`);
  return exists.rows[0]!.yes;
}

/** Events after `from` in the PostgreSQL store (0 when the store keeps them elsewhere). */
async function countEventsAfter(client: pg.ClientBase, from: Position): Promise<number> {
  if (!(await hasEventsTable(client))) return 0;
  const result = await client.query<{ n: number }>(
    `select count(*)::int as n from events where (transaction_id, position) > ($1::text::xid8, $2::bigint)`,
    [from.commit.toString(), from.prepare.toString()],
  );
  return result.rows[0]!.n;
}
