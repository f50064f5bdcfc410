import { Redis, type RedisOptions } from 'ioredis';

export type { Redis };

export interface RedisConnectionOptions {
  /**
   * Request-path connections fail fast instead of queueing commands while Redis is away, so a
   * caller gets a 500 at once rather than a hung request.
   */
  failFast?: boolean;
  /** Connection errors go here instead of ioredis's own unhandled-error printout. */
  onError?: (err: Error) => void;
}

/** One place that knows how we talk to Redis. BullMQ needs maxRetriesPerRequest: null on its connections. */
export function createRedis(url: string, options: RedisConnectionOptions = {}): Redis {
  const base: RedisOptions = {
    lazyConnect: false,
    connectTimeout: 5_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  };
  const tuned: RedisOptions = options.failFast
    ? // Auto-pipelining sends every command issued in one tick in a single write: concurrent
      // requests share round trips, and Redis fsyncs the AOF once for the whole batch.
      { ...base, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 2_000, enableAutoPipelining: true }
    : { ...base, maxRetriesPerRequest: null };
  const redis = new Redis(url, tuned);
  redis.on('error', options.onError ?? (() => undefined));
  return redis;
}

/** Waits until the connection is ready, or fails with a clear message. */
export async function waitForRedis(redis: Redis, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}
