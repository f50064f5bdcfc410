#!/usr/bin/env node
// `npm test`: installs what is missing, builds, starts a private Redis (free port, temporary
// folder), runs lint and every project's tests through Nx, then stops that Redis by its PID.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap, NX_ENV, ROOT } from './lib/bootstrap.mjs';
import { say } from './lib/log.mjs';
import { freePort, startRedis } from './lib/redis.mjs';
import { run } from './lib/run.mjs';

let redis;
const dir = mkdtempSync(join(tmpdir(), 'rm-test-redis-'));
const cleanup = () => {
  if (redis?.pid) {
    try {
      process.kill(redis.pid, 'SIGTERM');
    } catch {}
  }
  rmSync(dir, { recursive: true, force: true });
};
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

let code = 1;
try {
  await bootstrap();
  redis = await startRedis({ port: await freePort(), dir });
  say(`test Redis at ${redis.url} (pid ${redis.pid})`);
  const targets = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['lint', 'test'];
  code = await run(join(ROOT, 'node_modules', '.bin', 'nx'), ['run-many', '-t', ...targets, '--outputStyle=static', '--parallel=1'], {
    cwd: ROOT,
    env: { ...NX_ENV, REDIS_URL: redis.url, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
  });
} catch (err) {
  say(`tests could not run: ${err.message}`);
} finally {
  cleanup();
}
process.exit(code);
