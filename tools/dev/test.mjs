#!/usr/bin/env node
// `npm test`: installs what is missing (Debian's chromium and redis-sentinel too, as root), builds,
// starts a private Redis (free port, temporary folder), runs lint and every project's tests through Nx (the end-to-end suite last, alone), then
// stops that Redis by its PID.
import { join } from 'node:path';
import { bootstrap, NX_ENV, ROOT } from './lib/bootstrap.mjs';
import { ensureChromium } from './lib/chromium.mjs';
import { ensurePromtool } from './lib/promtool.mjs';
import { say } from './lib/log.mjs';
import { withPrivateRedis } from './lib/private-redis.mjs';
import { ensureRedisSentinel } from './lib/sentinel.mjs';
import { run } from './lib/run.mjs';

let code = 1;
try {
  await bootstrap();
  const chromium = await ensureChromium();
  const promtool = await ensurePromtool();
  await ensureRedisSentinel();
  const targets = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['lint', 'test'];
  code = await withPrivateRedis('test', async (redis) => {
    const nx = (args) =>
      run(join(ROOT, 'node_modules', '.bin', 'nx'), ['run-many', '-t', ...targets, '--outputStyle=static', ...args], {
        cwd: ROOT,
        env: { ...NX_ENV, REDIS_URL: redis.url, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', ...(chromium && { CHROMIUM_PATH: chromium }), ...(promtool && { PROMTOOL_PATH: promtool }) },
      });
    // Lint and the packages' own tests two at a time (each is one process, mostly waiting on the
    // disk or Redis); then the end-to-end suite alone, which runs two files at a time itself and
    // would starve beside anything else on two cores.
    const first = await nx(['--exclude=@rm/e2e', '--parallel=2']);
    const second = await nx(['--projects=@rm/e2e', '--parallel=1']);
    return first !== 0 ? first : second;
  });
} catch (err) {
  say(`tests could not run: ${err.message}`);
}
process.exit(code);
