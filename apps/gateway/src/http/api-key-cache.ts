import { ExpiringCache } from '@rm/runtime';
import type { ApiKeyRecord, Store } from '@rm/storage';

/**
 * Keeps found keys for a short while so the hot path does not read storage on every request. A
 * revoked key keeps working for at most `ttlMs`. Misses are not kept: an unknown key, whatever the
 * header says, costs no memory that outlives its request (auth.ts refuses over-long keys unread).
 */
export class ApiKeyCache {
  private readonly keys: ExpiringCache<ApiKeyRecord>;

  constructor(
    private readonly store: Store,
    ttlMs: number,
    limits = { maxEntries: 10_000, maxBytes: 8 * 1024 * 1024 },
  ) {
    this.keys = new ExpiringCache(ttlMs, limits);
  }

  async get(key: string): Promise<ApiKeyRecord | null> {
    const now = Date.now();
    const hit = this.keys.get(key, now);
    if (hit !== undefined) return hit;
    const record = await this.store.getApiKey(key);
    if (record) this.keys.set(key, record, now);
    return record;
  }
}
