import { ExpiringCache } from '@rm/runtime';
import type { DirectoryUser, UserDirectory } from './user-directory.js';

/**
 * Keeps found users in this process's memory for `ttlMs` (a bounded map), in front of the
 * directory or its Redis cache: every submit looks its user up, and most users are reported again
 * and again. Unknown users are never kept, so a player who just signed up is found at once.
 */
export function memoizedDirectory(inner: UserDirectory, ttlMs: number, limits = { maxEntries: 50_000, maxBytes: 32 * 1024 * 1024 }): UserDirectory {
  const found = new ExpiringCache<DirectoryUser>(ttlMs, limits);
  return {
    async getUser(id) {
      const now = Date.now();
      const hit = found.get(id, now);
      if (hit) return hit;
      const user = await inner.getUser(id);
      if (user) found.set(id, user, now);
      return user;
    },
  };
}
