import { comparePositions, START, type DomainEvent, type Position } from '@pf/events';
import {
  catchUpOnTypes,
  displayName,
  metrics,
  runOf,
  type EventStore,
  type FollowerSpec,
  type Logger,
  type Queryable,
  type StoredEvent,
} from '@pf/infra';
import type { Connection } from './connection';
import { deliveriesFor } from './deliveries';
import { loadNeeded, neededBy, nothingNeeded, type Needed } from './on-demand';
import { readEvent } from './read-event';
import { applyEvent, emptyIndex, holdIndex, type ViewIndex } from './view-index';

export { readEvent } from './read-event';

/** Entries kept in each of the index's maps unless the gateway is told otherwise (GatewayOptions.indexEntries; the same default as GATEWAY_INDEX_ENTRIES in infra/src/config.ts). */
const DEFAULT_INDEX_ENTRIES = 20_000;

/**
 * Follows the event store from the head it finds when the process starts (docs/decisions/bounded-restart.md):
 * keeps the index of what live pushes need, loading from the store what an event names and the index lacks, and
 * hands each event's pushes to the sockets entitled to them. Each gateway copy runs its own, so copies share nothing.
 */
export class Follower {
  readonly index: ViewIndex;
  /** The position of the last event applied; every push so far is at or below it. */
  position: Position = START;
  /** Whether this process has found where to begin (the head, with the deleted people read before it). */
  private begun = false;
  private readonly byUser = new Map<string, Set<Connection>>();
  private readonly byFirm = new Map<string, Set<Connection>>();
  private waiters: { position: Position; resolve: () => void }[] = [];

  constructor(
    private readonly store: EventStore<StoredEvent>,
    private readonly log: Logger,
    options: { indexEntries?: number; readModels?: Queryable | null } = {},
  ) {
    this.readModels = options.readModels ?? null;
    this.index = emptyIndex({
      entries: options.indexEntries ?? DEFAULT_INDEX_ENTRIES,
      followed: (conversationId) => this.isFollowed(conversationId),
    });
  }

  private readonly readModels: Queryable | null;

  /**
   * For the supervisor: a run follows the store from the last event applied here. A process begins at the head:
   * no socket is connected to it yet, so there is nothing earlier to push (a socket that comes back resumes from its
   * own position, read from the store), and the index is loaded as events need it; only the deleted people are read
   * first, by type, so what is loaded of theirs is erased. A store without typed reads begins at the first event. The
   * index lives in this process's memory, so after a failure the run resumes from the last event applied: a restart
   * of the run neither skips nor repeats a push.
   */
  spec(): FollowerSpec {
    return {
      name: 'realtime-gateway',
      position: () => this.position,
      start: async () => {
        if (!this.begun) {
          this.position = await catchUpOnTypes({
            store: this.store,
            from: START,
            types: ['AccountDeleted'],
            handle: async (events) => {
              for (const recorded of events) {
                const event = readEvent(recorded);
                if (event?.type === 'AccountDeleted') this.index.deletedPeople.add(event.data.userId);
              }
            },
            save: async () => undefined,
          });
          this.begun = true;
        }
        return runOf((onError) => this.store.subscribe(this.position, async (batch) => this.handle(batch), { onError }));
      },
    };
  }

  /** Whether a connected socket follows the conversation (its entry never leaves the index). */
  private isFollowed(conversationId: number): boolean {
    for (const set of this.byUser.values()) for (const connection of set) if (connection.subscriptions.has(conversationId)) return true;
    return false;
  }

  /**
   * Loads into the index what these events (or ids) name and it lacks, as applied by now, and holds the index so
   * none of it leaves before the caller is done (call the returned release). For a resume's replay and a subscribe.
   */
  async need(what: readonly DomainEvent[] | Needed): Promise<() => void> {
    const release = holdIndex(this.index);
    try {
      await loadNeeded(this.index, this.store, this.readModels, Array.isArray(what) ? neededBy(what) : (what as Needed), this.position);
      return release;
    } catch (error) {
      release();
      throw error;
    }
  }

  /** A conversation in the index if it exists as applied by now (a subscribe asks before it decides). */
  async needConversation(conversationId: number): Promise<void> {
    const needed = nothingNeeded();
    needed.conversations.add(conversationId);
    (await this.need(needed))();
  }

  add(connection: Connection): void {
    const { id, firstName, lastName, firmId, firmName } = connection.user;
    this.index.names.set(id, displayName(firstName, lastName));
    if (firmName) this.index.firmNames.set(firmId, firmName);
    const set = this.byUser.get(connection.user.id) ?? new Set();
    set.add(connection);
    this.byUser.set(connection.user.id, set);
    const members = this.byFirm.get(firmId) ?? new Set();
    members.add(connection);
    this.byFirm.set(firmId, members);
  }

  remove(connection: Connection): void {
    const set = this.byUser.get(connection.user.id);
    set?.delete(connection);
    if (set?.size === 0) this.byUser.delete(connection.user.id);
    const members = this.byFirm.get(connection.user.firmId);
    members?.delete(connection);
    if (members?.size === 0) this.byFirm.delete(connection.user.firmId);
  }

  get connections(): Connection[] {
    return [...this.byUser.values()].flatMap((set) => [...set]);
  }

  /**
   * What the batch needs is loaded first (the position stays before the batch meanwhile); then the batch is applied
   * synchronously on purpose: a resume reads `position` between batches, never in the middle of one.
   */
  private async handle(batch: readonly StoredEvent[]): Promise<void> {
    const events = batch.map((recorded) => readEvent(recorded));
    const release = await this.need(events.filter((event): event is DomainEvent => event !== null));
    try {
      this.apply(batch, events);
    } finally {
      release();
    }
  }

  private apply(batch: readonly StoredEvent[], events: readonly (DomainEvent | null)[]): void {
    for (const [i, recorded] of batch.entries()) {
      const event = events[i];
      if (event) {
        const at = recorded.recordedAt.toISOString();
        try {
          applyEvent(this.index, event, at);
          const pushed = this.broadcast(recorded.position, event, at);
          if (pushed > 0) {
            metrics.pushes.inc(pushed);
            metrics.pushLatency.observe(Math.max(0, Date.now() - recorded.recordedAt.getTime()) / 1000);
          }
        } catch (error) {
          this.log.error({ err: error, eventId: recorded.id }, 'realtime gateway could not push an event');
        }
      }
      this.position = recorded.position;
    }
    this.waiters = this.waiters.filter((waiter) => {
      if (comparePositions(this.position, waiter.position) < 0) return true;
      waiter.resolve();
      return false;
    });
  }

  /** Pushes the event to every socket entitled to it; answers how many were told. */
  private broadcast(position: Position, event: DomainEvent, at: string): number {
    let pushed = 0;
    for (const delivery of deliveriesFor(this.index, event, at)) {
      // Each firm's members, and the people named, once each: one body per firm (what it is shown is the firm's).
      const told = new Set<Connection>();
      const bodies = new Map<string, ReturnType<typeof delivery.body>>();
      const candidates = delivery.everyone
        ? this.connections
        : [
            ...delivery.firms.flatMap((firmId) => [...(this.byFirm.get(firmId) ?? [])]),
            ...(delivery.users ?? []).flatMap((userId) => [...(this.byUser.get(userId) ?? [])]),
          ];
      for (const connection of candidates) {
        if (told.has(connection) || !connection.wants(delivery)) continue;
        told.add(connection);
        const { id: userId, firmId } = connection.user;
        let body = bodies.get(firmId);
        if (!body) bodies.set(firmId, (body = delivery.body({ userId, firmId })));
        connection.push(position, body);
        pushed += 1;
      }
    }
    return pushed;
  }

  /** Waits (bounded) until the index has applied `position`; true when it has. */
  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (comparePositions(this.position, position) >= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== entry);
        resolve(false);
      }, timeoutMs);
      const entry = {
        position,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiters.push(entry);
    });
  }

  /** Lets every waiter go (the caller stops the follower's runs first). */
  close(): void {
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
  }
}
