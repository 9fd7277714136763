import type { EventStore, StoredEvent } from '@pf/infra';
import { loadHistory, type LoadedHistory } from './load-history';

/**
 * Scrubbing the history screen asks `?at=` once per step; reading every event of the conversation and its
 * agents again for each step made a scrub of n events n² reads. A loaded history is kept per conversation and
 * reused while each of its streams still ends where it was read: one small head lookup per stream (the
 * `streams` table in PostgreSQL, the last event in EventStoreDB) instead of every event. Keyed by stream heads
 * rather than the store's global head, because the global head (below the oldest open transaction) can stand
 * still while newer events commit, and a copy keyed by it would miss them.
 */
export class HistoryCache {
  private readonly entries = new Map<number, LoadedHistory>();

  constructor(
    private readonly store: EventStore<StoredEvent>,
    private readonly capacity = 200,
  ) {}

  async load(conversationId: number): Promise<LoadedHistory | null> {
    const cached = this.entries.get(conversationId);
    if (cached && (await this.stillCurrent(cached))) {
      // Re-inserted so the map's order is least recently used first.
      this.entries.delete(conversationId);
      this.entries.set(conversationId, cached);
      return cached;
    }
    const loaded = await loadHistory(this.store, conversationId);
    this.entries.delete(conversationId);
    if (loaded) {
      this.entries.set(conversationId, loaded);
      if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    }
    return loaded;
  }

  private async stillCurrent(history: LoadedHistory): Promise<boolean> {
    const heads = await Promise.all(history.streams.map((stream) => this.store.streamHead(stream)));
    return heads.every((head, i) => (head?.version ?? -1) === history.versions.get(history.streams[i]!));
  }
}
