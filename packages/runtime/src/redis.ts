import { Cluster, Redis as Standalone, type ClusterNode, type RedisOptions } from 'ioredis';
import { trackReach } from './redis-reach.js';

/** A standalone server or a Redis Cluster: every command we use exists on both. */
export type Redis = Standalone | Cluster;

/** Where Redis is: REDIS_URL alone, or cluster seed nodes with REDIS_URL's credentials and TLS. */
export interface RedisTarget {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: ClusterNode[] | undefined;
}

export interface RedisConnectionOptions {
  /**
   * Request-path connections fail fast instead of queueing commands while Redis is away, so a
   * caller gets a 500 at once rather than a hung request.
   */
  failFast?: boolean;
  /**
   * Sends every command issued in one tick in a single write, so concurrent requests share round
   * trips (and Redis fsyncs the AOF once for them). Only for connections BullMQ does not use:
   * ioredis copies every script defined on a connection into each pipeline it makes, which costs
   * 75 µs per pipeline with BullMQ's 64 scripts against 5 µs without them.
   */
  autoPipelining?: boolean;
  /** Connection errors go here instead of ioredis's own unhandled-error printout. */
  onError?: (err: Error) => void;
  /**
   * How long `disconnect()` gives the socket to close before destroying it (ioredis: 2 s, on a
   * timer that keeps the process alive). The socket of a connect that failed never closes by
   * itself, so a process about to exit (the CLI, Redis down) sat out the whole wait.
   */
  disconnectTimeoutMs?: number;
  /**
   * A connection that takes client-side caching's invalidations (NearCache): RESP2, since Redis
   * sends them as pub/sub messages only to a RESP2 connection and ioredis drops RESP3's
   * `invalidate` pushes; and no automatic resubscription, since after a reconnect NearCache asks
   * the new connection's id before it subscribes. Standalone Redis only.
   */
  invalidations?: boolean;
}

/** One place that knows how we talk to Redis. BullMQ needs maxRetriesPerRequest: null on its connections. */
export function createRedis(target: RedisTarget, options: RedisConnectionOptions = {}): Redis {
  const retry = (times: number) => Math.min(times * 200, 2_000);
  const perCommand: RedisOptions = options.failFast ? { maxRetriesPerRequest: 1, commandTimeout: 2_000 } : { maxRetriesPerRequest: null };
  const offlineQueue = !options.failFast;
  const autoPipelining = Boolean(options.autoPipelining);
  const disconnect: RedisOptions = options.disconnectTimeoutMs !== undefined ? { disconnectTimeout: options.disconnectTimeoutMs } : {};
  const redis = target.REDIS_CLUSTER_NODES
    ? new Cluster(target.REDIS_CLUSTER_NODES, {
        redisOptions: { ...credentialsOf(target.REDIS_URL), connectTimeout: 5_000, ...perCommand, ...disconnect },
        clusterRetryStrategy: retry,
        enableOfflineQueue: offlineQueue,
        enableAutoPipelining: autoPipelining,
      })
    : new Standalone(target.REDIS_URL, {
        connectTimeout: 5_000,
        retryStrategy: retry,
        enableOfflineQueue: offlineQueue,
        enableAutoPipelining: autoPipelining,
        ...(options.invalidations && { protocol: 2 as const, autoResubscribe: false }),
        ...perCommand,
        ...disconnect,
      });
  redis.on('error', options.onError ?? (() => undefined));
  trackReach(redis);
  return redis;
}

/** The parts of REDIS_URL that apply to every node of a cluster: user, password, TLS. */
function credentialsOf(url: string): RedisOptions {
  const parsed = new URL(url);
  return {
    ...(parsed.username && { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password && { password: decodeURIComponent(parsed.password) }),
    ...(parsed.protocol === 'rediss:' && { tls: {} }),
  };
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
