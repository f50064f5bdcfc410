import { ExpiringCache } from '@rm/runtime';
import type { ApiKeyRecord, Store } from '@rm/storage';

/**
 * Keeps looked-up keys (and misses) for a short while so the hot path does not read storage on
 * every request. A revoked key keeps working for at most `ttlMs`.
 */
export class ApiKeyCache {
  private readonly keys: ExpiringCache<ApiKeyRecord | null>;

  constructor(
    private readonly store: Store,
    ttlMs: number,
    maxEntries = 10_000,
  ) {
    this.keys = new ExpiringCache(ttlMs, maxEntries);
  }

  async get(key: string): Promise<ApiKeyRecord | null> {
    const now = Date.now();
    const hit = this.keys.get(key, now);
    if (hit !== undefined) return hit;
    const record = await this.store.getApiKey(key);
    this.keys.set(key, record, now);
    return record;
  }
}
