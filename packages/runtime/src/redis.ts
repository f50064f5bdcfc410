import { Cluster, Redis as Standalone, type ClusterNode, type RedisOptions } from 'ioredis';
import { traceCommands } from './redis-tracing.js';
import { tracingEnabled } from './tracing.js';
import { trackReach } from './redis-reach.js';

/** A standalone server or a Redis Cluster: every command we use exists on both. */
export type Redis = Standalone | Cluster;

/**
 * Where Redis is: REDIS_URL alone; or cluster seed nodes, or the Sentinels of a primary, with
 * REDIS_URL's credentials and TLS.
 */
export interface RedisTarget {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: ClusterNode[] | undefined;
  REDIS_SENTINELS?: { host: string; port: number }[] | undefined;
  REDIS_SENTINEL_NAME?: string | undefined;
  REDIS_SENTINEL_PASSWORD?: string | undefined;
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
    : standalone(target, {
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
  if (tracingEnabled) traceCommands(redis);
  return redis;
}

/**
 * A standalone client: of REDIS_URL; or, with REDIS_SENTINELS, of whichever server the Sentinels
 * name primary of REDIS_SENTINEL_NAME (with REDIS_URL's user, password and TLS; the Sentinels
 * with REDIS_SENTINEL_PASSWORD, when they ask for one). In Sentinel mode
 * ioredis asks them again on every reconnect. A failover closes the clients of the old primary
 * (it died, or the Sentinels demote it and CLIENT KILL its clients), so they reconnect and ask; a
 * write that still meets a demoted primary (READONLY) reconnects too.
 *
 * Not ioredis's `failoverDetector`: its `+switch-master` handler disconnects the connector, and
 * when that lands while a reconnect is asking a Sentinel (the usual moment: the primary died a
 * second before), the connect fails with "Connection is closed" and the client ends for good,
 * every command after refused until the process restarts (issue 51's failover test, 1 run in 3).
 */
function standalone(target: RedisTarget, options: RedisOptions): Standalone {
  if (!target.REDIS_SENTINELS) return new Standalone(target.REDIS_URL, options);
  return new Standalone({
    sentinels: target.REDIS_SENTINELS,
    name: target.REDIS_SENTINEL_NAME ?? 'mymaster',
    reconnectOnError: (err) => (err.message.startsWith('READONLY') ? 2 : false),
    ...credentialsOf(target.REDIS_URL),
    ...(target.REDIS_SENTINEL_PASSWORD !== undefined && { sentinelPassword: target.REDIS_SENTINEL_PASSWORD }),
    ...(new URL(target.REDIS_URL).protocol === 'rediss:' && { enableTLSForSentinelMode: true }),
    ...options,
  });
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
