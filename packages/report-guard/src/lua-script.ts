import { createHash } from 'node:crypto';
import type { Redis } from '@rm/runtime';

/** A script's call: its keys and arguments (the key count first when the script was given none). */
export type ScriptFn = (...args: (string | number)[]) => Promise<string>;

const isNoScript = (err: unknown) => err instanceof Error && err.message.startsWith('NOSCRIPT');

/**
 * A Lua script called by its SHA (EVALSHA), sent whole (EVAL, which also caches it) only when
 * Redis does not know it: after a restart, a flush, or on first use. Not ioredis's
 * `defineCommand`: ioredis copies every command defined on a connection into each pipeline it
 * builds, and the gateway's connection builds one per event-loop turn (auto-pipelining).
 */
export function luaScript(redis: Redis, lua: string, numberOfKeys?: number): ScriptFn {
  const sha = createHash('sha1').update(lua).digest('hex');
  const head = numberOfKeys === undefined ? [] : [numberOfKeys];
  const evalsha = redis.evalsha.bind(redis) as (...args: (string | number)[]) => Promise<string>;
  const evalWhole = redis.eval.bind(redis) as (...args: (string | number)[]) => Promise<string>;
  return async (...args) => {
    try {
      return await evalsha(sha, ...head, ...args);
    } catch (err) {
      if (!isNoScript(err)) throw err;
      return evalWhole(lua, ...head, ...args);
    }
  };
}
