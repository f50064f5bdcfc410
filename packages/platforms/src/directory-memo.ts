import type { DirectoryUser, UserDirectory } from './user-directory.js';

/**
 * Keeps found users in this process's memory for `ttlMs` (a bounded map), in front of the
 * directory or its Redis cache: every submit looks its user up, and most users are reported again
 * and again. Unknown users are never kept, so a player who just signed up is found at once.
 */
export function memoizedDirectory(inner: UserDirectory, ttlMs: number, maxEntries = 50_000): UserDirectory {
  const entries = new Map<string, { user: DirectoryUser; expires: number }>();
  return {
    async getUser(id) {
      const now = Date.now();
      const hit = entries.get(id);
      if (hit && hit.expires > now) return hit.user;
      const user = await inner.getUser(id);
      if (user) {
        if (entries.size >= maxEntries) entries.clear();
        entries.set(id, { user, expires: now + ttlMs });
      }
      return user;
    },
  };
}
