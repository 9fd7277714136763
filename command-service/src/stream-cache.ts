import type { EventStore, RecordedEvent } from '@pf/infra';

/** How many events the command side keeps in memory, over all streams (about 1 KB each). */
export const STREAM_CACHE_EVENTS = 20_000;

/**
 * The events of the streams this process decided on lately, so that a command reads from the store only what
 * was stored after them (usually nothing) instead of the whole stream again. Stored events never change and a
 * stream's versions have no gaps, so what is kept is always a true prefix of the stream; whatever another
 * process appended is still read from the store before each decision, and the append still names the version
 * it decided on. Least recently used streams leave first, once the total passes `maxEvents`.
 *
 * Only the command side reads through it: an auditor's history and the tamper check read the store itself.
 */
export class StreamCache {
  /** In order of use, least recent first (a Map keeps insertion order; a read moves the stream to the end). */
  private readonly streams = new Map<string, readonly RecordedEvent[]>();
  private total = 0;

  constructor(
    private readonly store: EventStore,
    private readonly maxEvents = STREAM_CACHE_EVENTS,
  ) {}

  /** Every event of the stream, in order: what is kept, and what the store has after it. */
  async read(stream: string): Promise<readonly RecordedEvent[]> {
    const known = this.streams.get(stream) ?? [];
    const next = known.length === 0 ? 0 : known[known.length - 1]!.streamVersion + 1;
    const newer = await this.store.readStream(stream, next);
    // Kept events that do not run on into what the store answers (a store reset under a running process):
    // the store's whole stream, not the kept one.
    const follows = known.length === 0 ? newer.length === 0 || newer[0]!.streamVersion === 0 : newer.length === 0 || newer[0]!.streamVersion === next;
    const events = follows ? (newer.length === 0 ? known : [...known, ...newer]) : await this.store.readStream(stream);
    this.keep(stream, events);
    return events;
  }

  private keep(stream: string, events: readonly RecordedEvent[]): void {
    this.total -= this.streams.get(stream)?.length ?? 0;
    this.streams.delete(stream);
    if (events.length === 0 || events.length > this.maxEvents) return;
    this.streams.set(stream, events);
    this.total += events.length;
    for (const [oldest, kept] of this.streams) {
      if (this.total <= this.maxEvents) break;
      this.streams.delete(oldest);
      this.total -= kept.length;
    }
  }

  /** For tests and /readyz-style reporting: streams and events held. */
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
