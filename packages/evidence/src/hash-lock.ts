import { withLock, type LockOptions, type Redis } from '@rm/runtime';

/** Runs `fn` while holding the locks of these SHA-256s. */
export type HashLock = <T>(sha256s: readonly string[], fn: () => Promise<T>) => Promise<T>;

/** No lock: for a process alone with its store and bytes (a test), or one that deletes nothing (a dry run). */
export const noHashLock: HashLock = (_sha256s, fn) => fn();

/**
 * Per-hash locks in Redis between captures and the retention sweep. The sweep commits that no item
 * holds some bytes, then deletes them; a capture of the same bytes in between would skip its write
 * (the copy is there), record its item and lose the bytes to the delete. So a capture holds its
 * hash from the write to the record, and the sweep a batch's hashes from marking its items deleted
 * to deleting the bytes nobody holds. Locks are taken in one order (sorted), so holders of
 * several never wait on each other in a circle; the TTL only frees those of a holder that died.
 */
export function redisHashLock(redis: Redis, prefix: string, options: LockOptions = { ttlMs: 300_000, waitMs: 300_000 }): HashLock {
  return function hold<T>(sha256s: readonly string[], fn: () => Promise<T>): Promise<T> {
    const keys = [...new Set(sha256s)].sort().map((sha256) => `${prefix}:evidence-bytes:{${sha256}}`);
    const from = (i: number): Promise<T> => (i === keys.length ? fn() : withLock(redis, keys[i]!, options, () => from(i + 1)));
    return from(0);
  };
}
