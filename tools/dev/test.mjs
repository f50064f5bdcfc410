#!/usr/bin/env node
// `npm test`: installs what is missing, builds, starts a private Redis (free port, temporary
// folder), runs lint and every project's tests through Nx, then stops that Redis by its PID.
import { join } from 'node:path';
import { bootstrap, NX_ENV, ROOT } from './lib/bootstrap.mjs';
import { ensureChromium } from './lib/chromium.mjs';
import { say } from './lib/log.mjs';
import { withPrivateRedis } from './lib/private-redis.mjs';
import { run } from './lib/run.mjs';

let code = 1;
try {
  await bootstrap();
  const chromium = await ensureChromium();
  const targets = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['lint', 'test'];
  code = await withPrivateRedis('test', (redis) =>
    run(join(ROOT, 'node_modules', '.bin', 'nx'), ['run-many', '-t', ...targets, '--outputStyle=static', '--parallel=1'], {
      cwd: ROOT,
      env: { ...NX_ENV, REDIS_URL: redis.url, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', ...(chromium && { CHROMIUM_PATH: chromium }) },
    }),
  );
} catch (err) {
  say(`tests could not run: ${err.message}`);
}
process.exit(code);
