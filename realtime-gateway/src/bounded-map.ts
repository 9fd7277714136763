/**
 * A map that keeps at most `limit` entries, the least recently used leaving first, except those `keep` names
 * (a conversation a connected socket follows): those never leave, so the map may hold more than `limit` while
 * more than that are kept. What leaves is only a copy of what the event store holds: the gateway loads it again
 * when it next needs it (on-demand.ts; docs/decisions/bounded-restart.md).
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(
    private readonly limit: number,
    private readonly keep: (key: K) => boolean = () => false,
  ) {
    super();
  }

  override get(key: K): V | undefined {
    const value = super.get(key);
    if (value !== undefined) {
      // The most recently used goes last (a Map iterates in insertion order).
      super.delete(key);
      super.set(key, value);
    }
    return value;
  }

  /** Holds that defer every eviction (a batch between loading what it needs and applying it); see hold(). */
  private holds = 0;

  /** A new key goes last; an existing one keeps its place (get moves it), so a loop over the map may set what it visits. */
  override set(key: K, value: V): this {
    super.set(key, value);
    if (this.size > this.limit && this.holds === 0) this.evict();
    return this;
  }

  /** Nothing leaves until the returned release is called (each hold released once). */
  hold(): () => void {
    this.holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      if (this.holds === 0 && this.size > this.limit) this.evict();
    };
  }

  private evict(): void {
    let over = this.size - this.limit;
    for (const key of this.keys()) {
      if (over <= 0) return;
      if (this.keep(key)) continue;
      super.delete(key);
      over -= 1;
    }
  }
}
