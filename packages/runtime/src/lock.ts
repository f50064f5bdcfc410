import { randomUUID } from 'node:crypto';
import type { Redis } from './redis.js';

export interface LockOptions {
  /** The lock expires on its own after this long, so a crashed holder cannot block others forever. */
  ttlMs: number;
  /** How long to wait for a busy lock before giving up with an error. */
  waitMs: number;
}

// Deletes the key only if it still holds our token: an expired lock taken by someone else stays theirs.
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** Runs `fn` while holding a Redis lock on `key` (SET NX PX), so holders of one key run one at a time. */
export async function withLock<T>(redis: Redis, key: string, options: LockOptions, fn: () => Promise<T>): Promise<T> {
  const token = randomUUID();
  const deadline = Date.now() + options.waitMs;
  while ((await redis.set(key, token, 'PX', options.ttlMs, 'NX')) !== 'OK') {
    if (Date.now() >= deadline) throw new Error(`lock ${key} stayed busy for ${options.waitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 50));
  }
  try {
    return await fn();
  } finally {
    await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
  }
}
