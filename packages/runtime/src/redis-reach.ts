import { Cluster, type Redis as Standalone } from 'ioredis';

/** redis.ts's `Redis`, spelled here: redis.ts calls trackReach, so importing it back would be a cycle. */
type Redis = Standalone | Cluster;

/**
 * Codes of a connection attempt that found no Redis at all: nothing listens on the port, no route
 * to the host, no answer to the connect in time, no such host. A connection that was merely cut
 * (a reset, a proxy's close) is not one: it may be back within the next retry.
 */
const NO_REDIS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);

/** Clients whose last connection attempt found no Redis and that have not been ready since. */
const refused = new WeakSet<Redis>();

/**
 * Follows a client's connection attempts (createRedis calls it on every client), so a caller can
 * tell "Redis is down" (refuse now) from "the connection was cut" (worth a short wait).
 */
export function trackReach(redis: Redis): void {
  redis.on('ready', () => refused.delete(redis));
  const onError = (err: NodeJS.ErrnoException) => {
    if (err.code !== undefined && NO_REDIS.has(err.code)) refused.add(redis);
  };
  redis.on('error', onError);
  // A Cluster reports each node's connection errors separately.
  if (redis instanceof Cluster) redis.on('node error', onError);
}

/**
 * True while the client is not connected and its last attempt to connect found no Redis: what is
 * sent now fails, and waiting a few hundred milliseconds will not change that. Used on the
 * request path to refuse at once instead of retrying for seconds (issue 51: a submit took up to
 * 3 s to be refused while Redis was down).
 */
export function redisRefusing(redis: Redis): boolean {
  return redis.status !== 'ready' && refused.has(redis);
}

/**
 * False when a command issued now cannot leave this process: a client without an offline queue
 * (createRedis's failFast) refuses on the spot, unsent, any command issued while it is not
 * connected. True otherwise, including "maybe" (connected but the answer may yet be lost).
 */
export function redisMaySend(redis: Redis): boolean {
  return redis.status === 'ready' || redis.status === 'connect';
}
