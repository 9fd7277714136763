import type { DomainEvent } from '@pf/events';
import type { EventStore } from '@pf/infra';

/** How many events the command side keeps in memory, over all streams. */
const STREAM_CACHE_EVENTS = 20_000;

/**
 * What a decider or a view folds from a stored event (read once where it left the store, upgraded and validated:
 * infra/src/event-store/contract-reads.ts), and where it stands in its stream.
 */
export type StoredFact = DomainEvent & {
  readonly recordedAt: Date;
  readonly streamVersion: number;
};

/**
 * The events of the streams this process decided on lately: what it read of them, and what it appended to
 * them itself. Stored events never change and a stream's versions have no gaps, so what is kept is always a
 * true prefix of the stream. Whether it is the whole stream is another matter (another process may have
 * appended since): `read` asks the store for anything after it; `held` answers without asking, for a decision
 * whose append names the version it was decided on, so that the store refuses it if the stream moved on.
 * Least recently used streams leave first, once the total passes `maxEvents`.
 *
 * Only the command side reads through it: an auditor's history and the tamper check read the store itself.
 */
export class StreamCache {
  /** In order of use, least recent first (a Map keeps insertion order; a use moves the stream to the end). */
  private readonly streams = new Map<string, readonly StoredFact[]>();
  /** Per stream, the last fold of it by each fold's key: how many events it took in, and the state they made. */
  private readonly folds = new Map<
    string,
    Map<object, { readonly count: number; readonly lastVersion: number; readonly state: unknown }>
  >();
  private total = 0;

  constructor(
    private readonly store: EventStore,
    private readonly maxEvents = STREAM_CACHE_EVENTS,
  ) {}

  /** Every event of the stream, in order: what is kept, and what the store has after it. */
  async read(stream: string): Promise<readonly StoredFact[]> {
    const known = this.streams.get(stream) ?? [];
    const next = known.length === 0 ? 0 : known[known.length - 1]!.streamVersion + 1;
    const newer = await this.store.readStream(stream, next);
    // Kept events that do not run on into what the store answers (a store reset under a running process):
    // the store's whole stream, not the kept one.
    const follows = newer.length === 0 || newer[0]!.streamVersion === next;
    // An event as read is its own fact: read through the contract where it left the store.
    const events: readonly StoredFact[] = !follows
      ? await this.store.readStream(stream)
      : newer.length === 0
        ? known
        : [...known, ...newer];
    this.keep(stream, events);
    return events;
  }

  /** The events kept of the stream, without asking the store whether there are more; undefined if none are. */
  held(stream: string): readonly StoredFact[] | undefined {
    const known = this.streams.get(stream);
    if (known) this.keep(stream, known);
    return known;
  }

  /** Events this process has just appended after version `after` (null: the stream was new). */
  appended(stream: string, after: number | null, events: readonly StoredFact[]): void {
    const known = this.streams.get(stream) ?? [];
    const last = known.length === 0 ? null : known[known.length - 1]!.streamVersion;
    if (last === after) this.keep(stream, [...known, ...events]);
  }

  /**
   * The stream's events, as this cache gave them, folded with `evolve` from `initial`: a fold with the same
   * `key` is taken up where the last one left off, so a command pays for the new events, not the whole stream
   * again. `evolve` must be pure (a new state per event, the old one untouched), as deciders' and views' are.
   */
  fold<S>(stream: string, events: readonly StoredFact[], key: object, initial: S, evolve: (state: S, fact: StoredFact) => S): S {
    const last = this.folds.get(stream)?.get(key);
    const resumes = last !== undefined && last.count <= events.length && events[last.count - 1]?.streamVersion === last.lastVersion;
    let state = resumes ? (last.state as S) : initial;
    for (let index = resumes ? last.count : 0; index < events.length; index++) state = evolve(state, events[index]!);
    if (this.streams.has(stream) && events.length > 0) {
      let byKey = this.folds.get(stream);
      if (!byKey)
        this.folds.set(
          stream,
          (byKey = new Map<object, { readonly count: number; readonly lastVersion: number; readonly state: unknown }>()),
        );
      byKey.set(key, { count: events.length, lastVersion: events[events.length - 1]!.streamVersion, state });
    }
    return state;
  }

  private keep(stream: string, events: readonly StoredFact[]): void {
    const before = this.streams.get(stream);
    this.total -= before?.length ?? 0;
    this.streams.delete(stream);
    // Folds go on from what they took in only while the stream is kept as an extension of it.
    if (!before || events.length < before.length || events[before.length - 1] !== before[before.length - 1]) this.folds.delete(stream);
    if (events.length === 0 || events.length > this.maxEvents) {
      this.folds.delete(stream);
      return;
    }
    this.streams.set(stream, events);
    this.total += events.length;
    for (const [oldest, kept] of this.streams) {
      if (this.total <= this.maxEvents) break;
      this.streams.delete(oldest);
      this.folds.delete(oldest);
      this.total -= kept.length;
    }
  }

  /** Streams and events held (for tests). */
  size(): { streams: number; events: number } {
    return { streams: this.streams.size, events: this.total };
  }
}

const caches = new WeakMap<EventStore, StreamCache>();

/** The command side's cache of this store's streams (one per store, so every command handler shares it). */
export function streamCacheOf(store: EventStore): StreamCache {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new StreamCache(store)));
  return cache;
}
