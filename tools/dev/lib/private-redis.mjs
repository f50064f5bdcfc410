import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { say } from './log.mjs';
import { freePort, startRedis } from './redis.mjs';

/**
 * Runs fn(redis) with a redis-server of its own (free port, temporary folder), then stops that
 * server by its PID and removes the folder, whatever fn does. Resolves to fn's result.
 */
export async function withPrivateRedis(label, fn) {
  const dir = mkdtempSync(join(tmpdir(), `rm-${label}-redis-`));
  let redis;
  const cleanup = () => {
    if (redis?.pid) {
      try {
        process.kill(redis.pid, 'SIGTERM');
      } catch {}
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = () => {
    cleanup();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    redis = await startRedis({ port: await freePort(), dir });
    say(`${label} Redis at ${redis.url} (pid ${redis.pid})`);
    return await fn(redis);
  } finally {
    cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
