import type { Redis } from '@rm/runtime';

/** Every key of a system (its prefix) with its value as text, whatever its type: for searching what should be gone. */
export async function redisDump(redis: Redis, prefix: string): Promise<string> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `*${prefix}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const type = await redis.type(key);
      const value =
        type === 'string' ? await redis.get(key)
        : type === 'hash' ? await redis.hgetall(key)
        : type === 'set' ? await redis.smembers(key)
        : type === 'list' ? await redis.lrange(key, 0, -1)
        : type === 'zset' ? await redis.zrange(key, '0', '-1')
        : type === 'stream' ? await redis.xrange(key, '-', '+')
        : null;
      out.push(key, JSON.stringify(value));
    }
  } while (cursor !== '0');
  return out.join('\n');
}
