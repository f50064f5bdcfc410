import { Cluster, type Redis as Standalone } from 'ioredis';
import type { Logger } from 'pino';
import { ConfigError } from './config.js';
import type { Redis } from './redis.js';

/** What is wrong with the Redis we were given: `refusals` stop a process, `warnings` are shown. */
export interface RedisCheck {
  refusals: string[];
  warnings: string[];
}

/** CONFIG GET of one setting on one server; undefined when CONFIG is not allowed there. */
async function setting(server: Standalone, name: string): Promise<string | undefined> {
  try {
    const answer = (await server.call('CONFIG', 'GET', name)) as string[];
    return answer[1];
  } catch {
    return undefined;
  }
}

/**
 * Checks the settings that keep queued work: `maxmemory-policy` must be `noeviction` (any other
 * policy silently deletes jobs, that is accepted reports and decisions, once memory is full) and
 * AOF should be on (without it a Redis restart loses whatever it held). On a Cluster every master
 * is checked. Managed services may hide CONFIG: then it says it could not check.
 */
export async function checkRedis(redis: Redis): Promise<RedisCheck> {
  const servers: Standalone[] = redis instanceof Cluster ? redis.nodes('master') : [redis];
  const check: RedisCheck = { refusals: [], warnings: [] };
  for (const server of servers) {
    const where = servers.length > 1 ? ` on ${server.options.host}:${server.options.port}` : '';
    const [policy, aof] = await Promise.all([setting(server, 'maxmemory-policy'), setting(server, 'appendonly')]);
    if (policy === undefined || aof === undefined) {
      check.warnings.push(`Redis settings could not be checked${where} (CONFIG GET is not allowed): make sure maxmemory-policy is noeviction and AOF is on`);
    }
    if (policy !== undefined && policy !== 'noeviction') {
      check.refusals.push(`Redis maxmemory-policy is ${policy}${where}; it must be noeviction, or Redis silently deletes queued reports and decisions when memory is full (CONFIG SET maxmemory-policy noeviction)`);
    }
    if (aof === 'no') {
      check.warnings.push(`Redis AOF is off${where}: a Redis restart loses the accepted reports and decisions it holds (CONFIG SET appendonly yes; appendfsync always)`);
    }
  }
  return check;
}

/**
 * The start-up check every process runs once Redis answers: an evicting Redis stops the process
 * with one line (a ConfigError); a warning is logged once, one line each. Returns the warnings,
 * for /ready to show.
 */
export async function checkRedisAtStart(redis: Redis, logger: Logger): Promise<string[]> {
  const { refusals, warnings } = await checkRedis(redis);
  if (refusals.length > 0) throw new ConfigError(refusals);
  for (const warning of warnings) logger.warn(warning);
  return warnings;
}
