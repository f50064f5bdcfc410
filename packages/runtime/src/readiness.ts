import type { Redis } from './redis.js';

/** The one store read readiness needs: any store answers it, whatever adapter it is. */
export interface ProbedStore {
  getApiKey(key: string): Promise<unknown>;
}

/** Whether Redis and the store answer now (the store is asked for a key that never exists). */
export async function probeDependencies(redis: Redis, store: ProbedStore): Promise<{ redis: boolean; store: boolean }> {
  const answers = (call: Promise<unknown>) => call.then(
    () => true,
    () => false,
  );
  const [redisUp, storeUp] = await Promise.all([answers(redis.ping()), answers(store.getApiKey('readiness-probe'))]);
  return { redis: redisUp, store: storeUp };
}
