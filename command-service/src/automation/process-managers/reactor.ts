import type pg from 'pg';
import { comparePositions, START, type Position } from '@pf/events';
import { checkpointStore, runOf, type EventStore, type Logger, type RecordedEvent, type Supervisor } from '@pf/infra';
import { loadSnapshot, NO_SNAPSHOT, saveSnapshot, type Snapshot } from './snapshots';

export interface ReactorHandlers<Recorded = RecordedEvent> {
  /** Rebuilds in-memory state from an event already handled before (at or before the checkpoint). */
  replay(event: Recorded): void;
  /** Handles new events: update state and issue commands. The checkpoint moves after it resolves. */
  react(batch: readonly Recorded[]): Promise<void>;
  /** Called once the reactor has caught up, to resume work that was waiting on a timer when it last stopped. */
  caughtUp(): void;
  /** The in-memory state as JSON, saved now and then with its position (see `snapshots` below). */
  snapshot?(): unknown;
}

export interface SnapshotPolicy {
  /** The shape of the saved state; bump it when that shape changes, and the next leader replays from zero once. */
  readonly format: number;
  /** Saved after a batch once this many events were reacted to since the last save, or this much time passed. */
  readonly everyEvents: number;
  readonly everyMs: number;
}

export interface Reactor {
  close(): Promise<void>;
}

/**
 * A process manager's event loop, run by the process's supervisor. One copy leads (the shared leadership
 * lock); the others stand by to take over. A run restores the state from the last snapshot (or from the
 * start without one), replays the events up to its checkpoint into it, reacts to events after the
 * checkpoint, and stores the checkpoint after each batch (at-least-once; reactions are idempotent by
 * deterministic event ids and stored decisions). A snapshot is saved after the checkpoint, so it never
 * stands past it; the events between the two are replayed, not reacted to again. A failed run, or a lost
 * lock, ends the run without a snapshot (its state may hold part of a failed batch, or another copy may lead
 * by now); the supervisor starts another with backoff.
 */
export function startReactor<Recorded extends { readonly position: Position } = RecordedEvent>(options: {
  name: string;
  pool: pg.Pool;
  store: EventStore<Recorded>;
  supervisor: Supervisor;
  log: Logger;
  /** Given the restored snapshot's state (null: start from zero). */
  handlers: (restored: unknown) => ReactorHandlers<Recorded>;
  snapshots?: SnapshotPolicy;
}): Reactor {
  const { name, pool, store, log } = options;
  const checkpoint = checkpointStore(pool, `reactor:${name}`);
  let position: Position = START;
  /** The running leadership's snapshot-on-hand-over; cleared when a run ends other than by close(). */
  let current: { saveOnHandOver(): Promise<void> } | null = null;
  let closing = false;

  const supervised = options.supervisor.run({
    name: `process manager: ${name}`,
    leadership: `reactor:${name}`,
    position: () => position,
    async start() {
      const policy = options.snapshots;
      const restored: Snapshot = (policy && (await loadSnapshot(pool, name, policy.format))) || NO_SNAPSHOT;
      const handlers = options.handlers(restored.state);
      const from = await checkpoint.load();
      log.info({ reactor: name, snapshot: restored !== NO_SNAPSHOT }, 'the process manager resumes');
      position = restored.position;
      let failed = false;
      let sinceSnapshot = 0;
      let snapshotAt = Date.now();
      let reached: Position | null = null;
      const snapshot = async (at: Position) => {
        if (!policy || !handlers.snapshot) return;
        sinceSnapshot = 0;
        snapshotAt = Date.now();
        await saveSnapshot(pool, name, policy.format, { position: at, state: handlers.snapshot() }).catch((error: unknown) =>
          log.warn({ err: error, reactor: name }, 'could not save the process manager snapshot; the last one stands'),
        );
      };
      const run = await runOf((onError) =>
        store.subscribe(
          restored.position,
          async (batch) => {
            const fresh = batch.filter((event) => comparePositions(event.position, from) > 0);
            for (const event of batch) if (comparePositions(event.position, from) <= 0) handlers.replay(event);
            if (fresh.length > 0) {
              await handlers.react(fresh);
              reached = fresh[fresh.length - 1]!.position;
              await checkpoint.save(reached);
              sinceSnapshot += fresh.length;
              if (policy && (sinceSnapshot >= policy.everyEvents || Date.now() - snapshotAt >= policy.everyMs)) await snapshot(reached);
            }
            position = batch[batch.length - 1]!.position;
          },
          {
            batchSize: 500,
            onError: (error) => {
              failed = true;
              onError(error);
            },
          },
        ),
      );
      void run.caughtUp.then(
        () => handlers.caughtUp(),
        () => undefined,
      );
      const mine = {
        saveOnHandOver: async () => {
          if (!failed && reached && sinceSnapshot > 0) await snapshot(reached);
        },
      };
      current = mine;
      return {
        ...run,
        close: async () => {
          await run.close();
          // A lost lock or a failure ends the run without a snapshot: another copy may lead by now.
          if (!closing && current === mine) current = null;
        },
      };
    },
  });
  return {
    // A graceful hand-over: the state as it stands is saved, so the next leader starts from exactly here.
    async close() {
      closing = true;
      const last = current;
      await supervised.stop();
      await last?.saveOnHandOver();
    },
  };
}
