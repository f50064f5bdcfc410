import { ExpiringCache } from '@rm/runtime';
import type { AccountStore, ApiKeyRecord } from '@rm/storage';

/**
 * Keeps verified `Authorization` headers with their key for a short while, so the hot path
 * neither reads storage nor hashes the secret again on every request: a repeat is one map lookup.
 * A revoked key keeps working for at most `ttlMs`. Only verified headers are kept: an unknown key
 * or a wrong secret, whatever the header says, costs no memory that outlives its request (auth.ts
 * refuses over-long keys unread). The secret stays in this process's memory as long as its entry.
 */
export class ApiKeyCache {
  private readonly verified: ExpiringCache<ApiKeyRecord>;

  constructor(
    private readonly store: AccountStore,
    ttlMs: number,
    limits = { maxEntries: 10_000, maxBytes: 8 * 1024 * 1024 },
  ) {
    this.verified = new ExpiringCache(ttlMs, limits);
  }

  /** The key of a header verified within the TTL. */
  known(header: string | undefined): ApiKeyRecord | undefined {
    return header === undefined ? undefined : this.verified.get(header);
  }

  /** The stored key, read from storage. */
  load(key: string): Promise<ApiKeyRecord | null> {
    return this.store.getApiKey(key);
  }

  /** Remembers a header whose secret matched its key. */
  remember(header: string, key: ApiKeyRecord): void {
    this.verified.set(header, key);
  }
}
