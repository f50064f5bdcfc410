import type { Redis } from './redis.js';
import { checkRedis } from './redis-check.js';

/** The one store read readiness needs: any store answers it, whatever adapter it is. */
export interface ProbedStore {
  getApiKey(key: string): Promise<unknown>;
}

/**
 * Whether Redis and the store answer now (the store is asked for a key that never exists), and
 * what checkRedis finds wrong with Redis: an evicting Redis is not ready; AOF off, or settings that
 * could not be checked, are `warnings`.
 */
export async function probeDependencies(redis: Redis, store: ProbedStore): Promise<{ redis: boolean; store: boolean; warnings: string[] }> {
  const answers = (call: Promise<unknown>) => call.then(
    () => true,
    () => false,
  );
  const [redisUp, storeUp] = await Promise.all([answers(redis.ping()), answers(store.getApiKey('readiness-probe'))]);
  const { refusals, warnings } = redisUp ? await checkRedis(redis) : { refusals: [], warnings: [] };
  return { redis: redisUp && refusals.length === 0, store: storeUp, warnings: [...refusals, ...warnings] };
}
