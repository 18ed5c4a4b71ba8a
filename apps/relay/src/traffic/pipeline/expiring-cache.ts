/**
 * T2: cached so a change on any replica holds everywhere within one second (D32, D35) without a
 * broadcast; concurrent misses share a load, and a failed load is not cached.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: Promise<V>; loadedAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = performance.now();
    const entry = this.entries.get(key);
    if (entry && now - entry.loadedAt < this.ttlMs) {
      return entry.value;
    }
    if (this.entries.size >= this.maxEntries) {
      this.evictExpired(now);
    }
    const value = load();
    this.entries.set(key, { value, loadedAt: now });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) {
        this.entries.delete(key);
      }
    });
    return value;
  }

  /** Drops what this replica changed itself, so its own next hop sees the change at once. */
  invalidate(predicate: (key: string) => boolean = () => true): void {
    for (const key of [...this.entries.keys()]) {
      if (predicate(key)) {
        this.entries.delete(key);
      }
    }
  }

  private evictExpired(now: number): void {
    for (const [key, entry] of this.entries) {
      if (now - entry.loadedAt >= this.ttlMs) {
        this.entries.delete(key);
      }
    }
    if (this.entries.size >= this.maxEntries) {
      this.entries.clear();
    }
  }
}
