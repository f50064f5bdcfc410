import type { ApiKeyRecord, Store } from '@rm/storage';

/**
 * Keeps looked-up keys (and misses) for a short while so the hot path does not read storage on
 * every request. A revoked key keeps working for at most `ttlMs`.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { record: ApiKeyRecord | null; expires: number }>();

  constructor(
    private readonly store: Store,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: string): Promise<ApiKeyRecord | null> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.record;
    const record = await this.store.getApiKey(key);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { record, expires: now + this.ttlMs });
    return record;
  }
}
