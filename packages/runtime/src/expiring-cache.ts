export interface ExpiringCacheLimits {
  /** Most entries kept at once. */
  maxEntries: number;
  /** Most bytes kept at once, as `sizeOf` estimates them: a few huge entries cannot fill the heap. */
  maxBytes: number;
  /** Estimated bytes of one entry; the default counts the key and the value (a string as it is, else its JSON) as UTF-16. */
  sizeOf?: (key: string, value: unknown) => number;
}

type Entry<V> = { value: V; expires: number; bytes: number };

/** Per-entry overhead of a Map slot and its record, roughly, so tiny entries still count. */
const ENTRY_OVERHEAD = 96;

/** A string is measured by its length; anything else by its JSON. */
export function approximateBytes(key: string, value: unknown): number {
  const chars = typeof value === 'string' ? value.length : value === undefined ? 0 : (JSON.stringify(value)?.length ?? 0);
  return ENTRY_OVERHEAD + 2 * (key.length + chars);
}

/**
 * A process-local map whose entries expire `ttlMs` after they were looked up, bounded in entries
 * and in bytes. Entries are kept in insertion order, which (one TTL for all, a set re-inserts) is
 * expiry order: expired entries are dropped from the front on every set, and when a bound is
 * reached the oldest go first. Every operation is O(1) amortised.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly limits: Required<ExpiringCacheLimits>;
  private bytes = 0;

  constructor(
    private readonly ttlMs: number,
    limits: number | ExpiringCacheLimits,
  ) {
    const given = typeof limits === 'number' ? { maxEntries: limits, maxBytes: limits * 1024 } : limits;
    this.limits = { sizeOf: approximateBytes, ...given };
  }

  /** The value kept for `key`, or undefined when there is none or it has expired (then dropped). */
  get(key: string, now = Date.now()): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expires > now) return hit.value;
    this.remove(key, hit);
    return undefined;
  }

  /**
   * Keeps `value` until `now + ttlMs`; `now` is when it was looked up, not when the answer came.
   * An entry larger than the byte bound on its own is not kept at all.
   */
  set(key: string, value: V, now = Date.now()): void {
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    this.dropExpired(now);
    const bytes = this.limits.sizeOf(key, value);
    if (bytes > this.limits.maxBytes) return;
    while (this.entries.size > 0 && (this.entries.size >= this.limits.maxEntries || this.bytes + bytes > this.limits.maxBytes)) this.dropOldest();
    this.entries.set(key, { value, expires: now + this.ttlMs, bytes });
    this.bytes += bytes;
  }

  /** Forgets `key`. */
  delete(key: string): void {
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** How many entries and estimated bytes are kept now (for tests and metrics). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private dropExpired(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expires > now) return;
      this.remove(key, entry);
    }
  }

  private dropOldest(): void {
    const first = this.entries.entries().next();
    if (!first.done) this.remove(first.value[0], first.value[1]);
  }

  private remove(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
