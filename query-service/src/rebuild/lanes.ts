import type pg from 'pg';
import { comparePositions, START, type Position } from '@pf/events';
import type { RecordedEvent } from '@pf/infra';
import { ProjectorMemory } from '../projection-kit/memory';
import { BulkFill, fillingWith } from '../projection-kit/bulk-fill';
import { DocumentMirrors } from '../projection-kit/document-mirror';
import type { RebuildPart } from './parts';
import { REBUILD_SCHEMA, useSchema } from './shadow';

const after = (position: Position) => (event: RecordedEvent) => comparePositions(event.position, position) > 0;
export const earliest = (positions: Position[]) => positions.reduce((best, p) => (comparePositions(p, best) < 0 ? p : best));

/** A group of parts folded in its own transactions, one after another; lanes run side by side. */
export class Lane {
  readonly memory = new ProjectorMemory();
  private memoryAt: Position | null = null;
  /** Its new rows copied in rather than inserted, while it alone fills its copies from empty (bulk-fill.ts). */
  private fill: BulkFill | undefined;

  constructor(
    readonly parts: readonly RebuildPart[],
    /** Each part's committed position in the rebuild schema. */
    readonly positions: Map<string, Position>,
    /** Whether its tables are the empty copies of this run (not taken up from an interrupted one). */
    fresh: boolean,
    /** Whether new rows of fresh tables are copied in (bulk-fill.ts) rather than inserted by their statements. */
    copyRows = fresh,
  ) {
    // Filled from empty by this lane alone: its document tables can be kept whole in memory (document-mirror.ts).
    if (fresh) this.memory.documents = new DocumentMirrors();
    if (fresh && copyRows) this.fill = new BulkFill();
  }

  get position(): Position {
    return earliest(this.parts.map((part) => this.positions.get(part.name)!));
  }

  /** Folds the events each part has not folded yet into the rebuild schema, inside the caller's transaction. */
  async applyIn(client: pg.ClientBase, batch: readonly RecordedEvent[], positions: Map<string, Position>): Promise<void> {
    if (batch.length === 0) return;
    if (this.fill) await fillingWith(client, this.fill, () => this.fold(client, batch, positions));
    else await this.fold(client, batch, positions);
  }

  private async fold(client: pg.ClientBase, batch: readonly RecordedEvent[], positions: Map<string, Position>): Promise<void> {
    const last = batch[batch.length - 1]!.position;
    this.memory.begin(this.memoryAt ?? START);
    for (const part of this.parts) {
      // The whole batch but where an interrupted rebuild left this part inside it.
      const position = positions.get(part.name)!;
      const fresh = after(position)(batch[0]!) ? batch : batch.filter(after(position));
      if (fresh.length === 0) continue;
      await part.project(client, fresh, this.memory);
      positions.set(part.name, last);
    }
    await client.query(`update rebuild_positions set commit_position = $2, prepare_position = $3 where part = any($1::text[])`, [
      this.parts.map((p) => p.name),
      last.commit.toString(),
      last.prepare.toString(),
    ]);
    this.memory.committed(last);
    this.memoryAt = last;
  }

  /** One committed batch on this lane's own connection. */
  async apply(client: pg.ClientBase, batch: readonly RecordedEvent[]): Promise<void> {
    if (batch.every((event) => !after(this.position)(event))) return;
    const staged = new Map(this.positions);
    try {
      // Not waiting for the WAL flush: the rows and the positions commit together, so a crash loses whole
      // batches, which the next rebuild applies again from the positions that did reach the disk.
      await client.query(`begin; set local synchronous_commit = off`);
      await useSchema(client, REBUILD_SCHEMA);
      await this.applyIn(client, batch, staged);
      await client.query('commit');
    } catch (error) {
      this.forget();
      await client.query('rollback').catch(() => undefined);
      throw error;
    }
    for (const part of this.parts) this.positions.set(part.name, staged.get(part.name)!);
  }

  /** What it knew of its rows goes (a batch or the switch rolled back); the tables are read from then on. */
  forget(): void {
    this.memory.forget();
    this.memory.documents = undefined;
    this.fill = undefined;
    this.memoryAt = null;
  }
}

/** A read of the log for a catch-up: the events after `position` it may fold, and whether it reached the head. */
export type ReadBatch = (position: Position, limit: number) => Promise<{ events: readonly RecordedEvent[]; atHead: boolean }>;

/**
 * Folds the log from `from` to the head (see `read`) in every lane, each lane at its own pace: the log is read
 * once, up to `ahead` batches before the slowest lane, and a lane that has finished a batch goes on to the next
 * without waiting for the others (docs/decisions/live-rebuild.md: one lane's writes in PostgreSQL overlap
 * another's fold in Node). `applied` is told of a batch once every lane has committed it; `took`, of each
 * batch transaction's length.
 */
export async function foldInLanes(options: {
  lanes: readonly Lane[];
  clients: readonly pg.ClientBase[];
  from: Position;
  read: ReadBatch;
  size: () => number;
  ahead: number;
  signal?: AbortSignal;
  applied: (events: number) => void;
  took: (ms: number) => void;
}): Promise<void> {
  const { lanes, clients } = options;
  const batches = new Map<number, readonly RecordedEvent[]>();
  /** How many batches there are, once the read has reached the head. */
  let count = Infinity;
  const finished = lanes.map(() => 0);
  let committed = 0;
  let failed = false;
  let wake = () => undefined as void;
  let changed = new Promise<void>((resolve) => (wake = resolve));
  const notify = () => {
    const woken = wake;
    changed = new Promise<void>((resolve) => (wake = resolve));
    woken();
  };
  const guarded = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      failed = true;
      notify();
      throw error;
    }
  };

  const reader = guarded(async () => {
    let position = options.from;
    for (let index = 0; ; index += 1) {
      while (!failed && Math.min(...finished) + options.ahead <= index) await changed;
      if (failed) return;
      options.signal?.throwIfAborted();
      const { events, atHead } = await options.read(position, options.size());
      if (events.length > 0) {
        batches.set(index, events);
        position = events[events.length - 1]!.position;
      }
      if (events.length === 0 || atHead) count = events.length === 0 ? index : index + 1;
      notify();
      if (count !== Infinity) return;
    }
  });

  const folds = lanes.map((lane, laneIndex) =>
    guarded(async () => {
      for (let index = 0; ; index += 1) {
        while (!failed && index < count && !batches.has(index)) await changed;
        if (failed || index >= count) return;
        options.signal?.throwIfAborted();
        const began = performance.now();
        await lane.apply(clients[laneIndex]!, batches.get(index)!);
        options.took(performance.now() - began);
        finished[laneIndex] = index + 1;
        for (; committed < Math.min(...finished); committed += 1) {
          options.applied(batches.get(committed)!.length);
          batches.delete(committed);
        }
        notify();
      }
    }),
  );

  // Every lane's transaction settled before the caller goes on (a failed one is rethrown after).
  const outcomes = await Promise.allSettled([reader, ...folds]);
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}
