import { comparePositions, domainEvent, START, type DomainEvent, type Position } from '@pf/events';
import { displayName, metrics, runOf, type EventStore, type FollowerSpec, type Logger, type RecordedEvent } from '@pf/infra';
import type { Connection } from './connection';
import { deliveriesFor } from './deliveries';
import { applyEvent, emptyIndex, type ViewIndex } from './view-index';

/** A stored event the gateway understands, or null (a type added later, or bad data, is skipped). */
export function readEvent(recorded: RecordedEvent): DomainEvent | null {
  const parsed = domainEvent.safeParse({ type: recorded.type, data: recorded.data });
  return parsed.success ? parsed.data : null;
}

/**
 * Follows the event store from the start: keeps the index and hands each event's pushes to the
 * sockets entitled to them. Each gateway copy runs its own, so copies share nothing.
 */
export class Follower {
  readonly index: ViewIndex = emptyIndex();
  /** The position of the last event applied; every push so far is at or below it. */
  position: Position = START;
  private readonly byUser = new Map<string, Set<Connection>>();
  private readonly byFirm = new Map<string, Set<Connection>>();
  private waiters: { position: Position; resolve: () => void }[] = [];

  constructor(
    private readonly store: EventStore,
    private readonly log: Logger,
  ) {}

  /**
   * For the supervisor: a run follows the store from the last event applied here. The index lives in this
   * process's memory, so that is its checkpoint: a restart after a failure neither skips nor repeats a push.
   */
  spec(): FollowerSpec {
    return {
      name: 'realtime-gateway',
      position: () => this.position,
      start: () => runOf((onError) => this.store.subscribe(this.position, async (batch) => this.handle(batch), { onError })),
    };
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

  /** Synchronous on purpose: a resume reads `position` between batches, never in the middle of one. */
  private handle(batch: readonly RecordedEvent[]): void {
    for (const recorded of batch) {
      const event = readEvent(recorded);
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
