import type pg from 'pg';
import { comparePositions, START, type EventMetadata, type Position } from '@pf/events';
import { Invalid } from '../errors';
import { GroupCommit, type QueuedAppend } from './group-commit';
import { writeGroup, type Settled } from './group-transaction';
import { EVENTS_CHANNEL, Notifier } from './notifier';
import { pollingSubscription } from './polling-subscription';
import { appendAlone, findExisting } from './single-append';
import type {
  AppendResult,
  BatchHandler,
  EventStore,
  ExpectedVersion,
  NewEvent,
  ReadAllOptions,
  StoredEvent,
  StreamHeadRecord,
  SubscribeOptions,
  TypedRead,
  Subscription,
} from './port';

/**
 * A row of `COLUMNS` (or `LEAN_COLUMNS`, without the last two), read as an array (node-postgres's `rowMode: 'array'`):
 * no object with named properties made per row only to be copied into a StoredEvent (reading the 200,000 events of
 * the rebuild benchmark in batches of 5,000, about a tenth less of Node's time; docs/decisions/live-rebuild.md).
 */
type EventRow = [
  position: number,
  tx: string,
  eventId: string,
  streamName: string,
  streamVersion: number,
  type: string,
  data: unknown,
  metadata: EventMetadata,
  /** Milliseconds since 1970, whole (what a Date holds, and what the hash chain hashes). */
  recordedMs: number,
  /** Left out by a lean read (ReadAllOptions.lean). */
  hash?: string | null,
  previousHash?: string | null,
];

// Aliased: an output column named transaction_id would make ORDER BY sort the text, not the xid8. The time as
// a number of milliseconds (cut to the millisecond, as node-postgres's own parser cuts it): a Date from a number is
// made without parsing the timestamp's text (postgres-date: about 15 % of decoding the rows in a profile of the Emmett comparison).
const LEAN_COLUMNS =
  'position, transaction_id::text as tx, event_id, stream_name, stream_version, type, data, metadata, floor(extract(epoch from recorded_at) * 1000)::float8 as recorded_ms';
const COLUMNS = `${LEAN_COLUMNS}, hash, previous_hash`;

function toRecorded(row: EventRow): StoredEvent {
  return {
    id: row[2],
    type: row[5],
    stream: row[3],
    streamVersion: row[4],
    position: { commit: BigInt(row[1]), prepare: BigInt(row[0]) },
    recordedAt: new Date(row[8]),
    data: row[6],
    metadata: row[7],
    hash: row[9],
    previousHash: row[10],
  };
}

/**
 * The event store in PostgreSQL. Global order is (transaction id, sequence): a reader only sees
 * events of transactions older than the oldest one still running (pg_snapshot_xmin), so an event
 * that commits late can never be skipped by a subscriber that already read past its sequence number.
 */
export class PostgresEventStore implements EventStore<StoredEvent> {
  private readonly notifier: Notifier;
  private announcing = false;
  private announceAgain = false;

  private readonly groups: GroupCommit;
  /** The read of the log's tail in flight, which other followers' reads may share (readAll). */
  private tailRead: {
    readonly after: Position;
    readonly limit: number;
    readonly wakes: number;
    readonly events: Promise<StoredEvent[]>;
  } | null = null;

  /** `lanes`: how many group transactions this store keeps in flight at once. */
  constructor(
    private readonly pool: pg.Pool,
    connectionString: string,
    lanes = 2,
  ) {
    this.notifier = new Notifier(connectionString, pool);
    this.groups = new GroupCommit(lanes, (group) => this.commitGroup(group));
  }

  async append(stream: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    if (events.length === 0) throw new Invalid('An append needs at least one event');
    return this.groups.submit(stream, events, expected);
  }

  /**
   * One transaction (one statement) for every append queued meanwhile (group-commit.ts,
   * group-transaction.ts), then each caller settled with its own result. When the statement fails with an
   * error PostgreSQL reports (an id already stored: a retried append, or a duplicate racing in from
   * elsewhere; a deadlock between stream locks; an id that is not a UUID), nothing of the group is stored and each member is appended on its own, in order, so
   * it gets exactly the answer a lone append gives; a lost connection fails them all, as it would each.
   */
  private async commitGroup(group: readonly QueuedAppend[]): Promise<void> {
    let outcomes: Settled[];
    try {
      outcomes = await writeGroup(this.pool, group);
    } catch (error) {
      if (typeof (error as { code?: unknown }).code !== 'string') throw error;
      for (const member of group) await this.settle(member, () => appendAlone(this.pool, member.stream, member.events, member.expected));
      this.announce();
      return;
    }
    if (outcomes.some((outcome) => outcome.kind === 'written')) this.announce();
    for (const outcome of outcomes) {
      const { member } = outcome;
      if (outcome.kind === 'written') member.resolve(outcome.result);
      else if (outcome.kind === 'conflict') {
        // A retried append whose first try was stored finds its stream moved on: answered as that try was.
        const { error } = outcome;
        await this.settle(member, async () => {
          const existing = await findExisting(this.pool, member.stream, member.events);
          if (existing) return existing;
          throw error;
        });
      } else {
        await this.settle(member, () => appendAlone(this.pool, member.stream, member.events, member.expected));
        this.announce();
      }
    }
  }

  private async settle(member: QueuedAppend, work: () => Promise<AppendResult>): Promise<void> {
    try {
      member.resolve(await work());
    } catch (error) {
      member.reject(error);
    }
  }

  /**
   * Tells every follower that something was appended: this process's at once, other processes through
   * NOTIFY. Sent after the commit, not in the transaction: a notifying commit takes a database-wide lock
   * until it is flushed, which serialises every append (pgbench here: 8,820 commits/s, 4,307 with NOTIFY).
   * At most one NOTIFY is in flight; appends meanwhile are covered by the next one. It carries the
   * notifier's token, so this store's own listener does not wake its followers a second time. None at all when
   * no other session listens on the database (Notifier.othersMayListen: a single node). A NOTIFY
   * lost in a crash only delays followers to their next poll.
   */
  private announce(): void {
    this.notifier.wake();
    // No other listener on this database (a single node): its own followers were just woken; nobody else to tell.
    if (!this.notifier.othersMayListen()) return;
    if (this.announcing) {
      this.announceAgain = true;
      return;
    }
    this.announcing = true;
    void this.pool
      .query(`select pg_notify('${EVENTS_CHANNEL}', $1)`, [this.notifier.token])
      .catch(() => undefined)
      .finally(() => {
        this.announcing = false;
        if (this.announceAgain) {
          this.announceAgain = false;
          this.announce();
        }
      });
  }

  /**
   * Ordered here, not by the query: PostgreSQL reads a stream's rows with a bitmap scan in the table's order,
   * and sorting those whole rows (data and metadata included) took two to twenty times the scan itself for a
   * 1,000-event stream (EXPLAIN ANALYZE after the Emmett comparison's appends, bench/scenarios/emmett.ts); the
   * rows come almost in order (positions follow versions within a stream), which JavaScript's sort passes over
   * in one run.
   */
  async readStream(stream: string, fromVersion = 0): Promise<StoredEvent[]> {
    const result = await this.pool.query<EventRow>({
      text: `select ${COLUMNS} from events where stream_name = $1 and stream_version >= $2`,
      values: [stream, fromVersion],
      rowMode: 'array',
    });
    return result.rows.sort((a, b) => a[4] - b[4]).map(toRecorded);
  }

  async streamHead(stream: string): Promise<StreamHeadRecord | null> {
    const result = await this.pool.query<{ version: string; hash: string | null }>(
      'select version, hash from streams where stream_name = $1',
      [stream],
    );
    const row = result.rows[0];
    return row ? { version: Number(row.version), hash: row.hash } : null;
  }

  async streamsWithEvents(streams: readonly string[]): Promise<Set<string>> {
    if (streams.length === 0) return new Set();
    const result = await this.pool.query<{ stream_name: string }>('select stream_name from streams where stream_name = any($1::text[])', [
      [...streams],
    ]);
    return new Set(result.rows.map((row) => row.stream_name));
  }

  /**
   * Every follower in this process (projector, gateway, analytics, automation, deal opener...) reads the tail
   * of the log when woken, at the same moment and from about the same position. A read asked for while
   * another one is in flight, from a position at or after that one's, and with no wake-up since it was asked
   * (so nothing appended since that it could miss: a later append wakes the follower, which reads again), is
   * answered from it instead of being a query of its own: its events after the asked position, if it has any,
   * or if it was not cut short by its limit.
   */
  async readAll(after: Position, limit: number, options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    // A lean read is not shared: a follower sharing it would miss the links it may need.
    if (options.lean) return this.queryAll(after, limit, LEAN_COLUMNS);
    const shared = this.tailRead;
    if (shared && shared.wakes === this.notifier.wakes && comparePositions(after, shared.after) >= 0) {
      const events = await shared.events.catch(() => null);
      if (events) {
        const mine = events.filter((event) => comparePositions(event.position, after) > 0);
        if (mine.length > 0 || events.length < shared.limit) return mine.slice(0, limit);
      }
    }
    const read = { after, limit, wakes: this.notifier.wakes, events: this.queryAll(after, limit) };
    this.tailRead = read;
    try {
      return await read.events;
    } finally {
      if (this.tailRead === read) this.tailRead = null;
    }
  }

  private async queryAll(after: Position, limit: number, columns = COLUMNS): Promise<StoredEvent[]> {
    const result = await this.pool.query<EventRow>({
      text: `select ${columns} from events
       where (transaction_id, position) > ($1::text::xid8, $2::bigint)
         and transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       order by transaction_id, position
       limit $3`,
      values: [after.commit.toString(), after.prepare.toString(), limit],
      rowMode: 'array',
    });
    return result.rows.map(toRecorded);
  }

  /**
   * The events of a few types after a position, and how far the read covered (EventStore.readTypes). The types
   * go in as literals so the planner can use a partial index of those types (READ_TYPES_INDEXED below); the head
   * is read in the same statement, under the same snapshot, so nothing of these types lies between the last
   * event answered and `through`.
   */
  async readTypes(after: Position, types: readonly string[], limit: number): Promise<TypedRead<StoredEvent>> {
    if (types.length === 0) return { events: [], through: await this.headPosition() };
    // Event types are names from the code (the contract's), never a caller's text; checked all the same.
    if (types.some((type) => !/^[A-Za-z]+$/.test(type))) throw new Invalid(`Not an event type: ${types.join(', ')}`);
    const list = types.map((type) => `'${type}'`).join(', ');
    const result = await this.pool.query<unknown[]>({
      text: `with head as (
         select transaction_id::text as tx, position from events
          where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
          order by transaction_id desc, position desc limit 1
       ), found as (
         select ${COLUMNS} from events
          where type in (${list})
            and (transaction_id, position) > ($1::text::xid8, $2::bigint)
            and transaction_id < pg_snapshot_xmin(pg_current_snapshot())
          order by transaction_id, position
          limit $3
       )
       select found.*, head.position as head_position, head.tx as head_tx from head left join found on true
       order by found.tx::xid8, found.position`,
      values: [after.commit.toString(), after.prepare.toString(), limit],
      rowMode: 'array',
    });
    const rows = result.rows;
    const headRow = rows[0];
    const events = rows.filter((row) => row[0] !== null).map((row) => toRecorded(row as unknown as EventRow));
    const head: Position = headRow ? { commit: BigInt(headRow[12] as string), prepare: BigInt(headRow[11] as number) } : START;
    const last = events[events.length - 1]?.position;
    const through = events.length >= limit && last ? last : comparePositions(head, after) > 0 ? head : after;
    return { events, through };
  }

  async headPosition(): Promise<Position> {
    const result = await this.pool.query<{ tx: string; position: number }>(
      `select transaction_id::text as tx, position from events
       where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       order by transaction_id desc, position desc limit 1`,
    );
    const row = result.rows[0];
    return row ? { commit: BigInt(row.tx), prepare: BigInt(row.position) } : START;
  }

  async wasWrittenAt(position: Position): Promise<boolean> {
    // Beyond the column types no event can be (and PostgreSQL would refuse the comparison).
    if (position.commit >= 2n ** 64n || position.prepare >= 2n ** 63n) return false;
    const found = await this.pool.query('select 1 from events where transaction_id = $1::text::xid8 and position = $2::bigint', [
      position.commit.toString(),
      position.prepare.toString(),
    ]);
    return found.rowCount === 1;
  }

  subscribe(after: Position, handler: BatchHandler<StoredEvent>, options: SubscribeOptions = {}): Subscription {
    return pollingSubscription({
      after,
      handler,
      options,
      read: (from, limit) => this.readAll(from, limit),
      head: () => this.headPosition(),
      onWake: (listener) => this.notifier.onWake(listener),
    });
  }

  async close(): Promise<void> {
    await this.notifier.close();
  }
}
