#!/usr/bin/env node
// `npm run soak`: installs what is missing, builds, starts a private Redis (AOF always, as
// `npm start`), then runs the soak (tools/bench/src/soak.ts) against it: the whole system under a
// steady mixed load for 30 minutes by default (`npm run soak -- --minutes 3`), a row per minute and
// a verdict against the goals; Redis is stopped by its PID afterwards. Not part of `npm test`.
import { join } from 'node:path';
import { bootstrap, ROOT } from './lib/bootstrap.mjs';
import { say } from './lib/log.mjs';
import { withPrivateRedis } from './lib/private-redis.mjs';
import { run } from './lib/run.mjs';

let code = 1;
try {
  await bootstrap();
  code = await withPrivateRedis('soak', (redis) =>
    run(process.execPath, [join(ROOT, 'tools/bench/dist/soak.js'), ...process.argv.slice(2)], {
      cwd: ROOT,
      env: { ...process.env, REDIS_URL: redis.url, REDIS_PID: String(redis.pid) },
    }),
  );
} catch (err) {
  say(`soak could not run: ${err.message}`);
}
process.exit(code);
