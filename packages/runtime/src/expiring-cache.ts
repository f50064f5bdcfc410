/**
 * A process-local map whose entries expire `ttlMs` after they were looked up, bounded by
 * `maxEntries` (when full it starts afresh: simpler than an LRU, and a cache miss only costs a read).
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The value kept for `key`, or undefined when there is none or it has expired. */
  get(key: string, now = Date.now()): V | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expires > now ? hit.value : undefined;
  }

  /** Keeps `value` until `now + ttlMs`; `now` is when it was looked up, not when the answer came. */
  set(key: string, value: V, now = Date.now()): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, expires: now + this.ttlMs });
  }
}
