import type { Redis } from '@rm/runtime';
import type { DirectoryUser, UserDirectory } from './user-directory.js';

/**
 * Keeps found users in Redis for `ttlMs`, shared by every gateway and worker. Unknown users are
 * not cached, so a player who just signed up is found at once. The cache is best effort: when
 * Redis fails, the directory is asked.
 */
export function cachedDirectory(inner: UserDirectory, redis: Redis, options: { prefix: string; ttlMs: number }): UserDirectory {
  const keyOf = (id: string) => `${options.prefix}:directory:user:${id}`;
  return {
    async getUser(id) {
      const hit = await redis.get(keyOf(id)).catch(() => null);
      if (hit) return JSON.parse(hit) as DirectoryUser;
      const user = await inner.getUser(id);
      if (user) await redis.set(keyOf(id), JSON.stringify(user), 'PX', options.ttlMs).catch(() => undefined);
      return user;
    },
  };
}
