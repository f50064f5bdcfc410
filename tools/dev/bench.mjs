#!/usr/bin/env node
// `npm run bench`: installs what is missing, builds, starts a private Redis, then runs the
// benchmark orchestrator (tools/bench) against it; Redis is stopped by its PID afterwards.
import { join } from 'node:path';
import { bootstrap, ROOT } from './lib/bootstrap.mjs';
import { say } from './lib/log.mjs';
import { withPrivateRedis } from './lib/private-redis.mjs';
import { run } from './lib/run.mjs';

const PARTS = { evidence: 'evidence-bench.js', decisions: 'decisions-bench.js', replicas: 'replicas-bench.js' };

let code = 1;
try {
  await bootstrap();
  code = await withPrivateRedis('bench', (redis) =>
    // `npm run bench -- evidence` runs only the evidence bench (tools/bench/src/evidence-bench.ts),
    // `npm run bench -- decisions` only the decision cycles (tools/bench/src/decisions-bench.ts),
    // `npm run bench -- replicas` submit with and without REDIS_MIN_REPLICAS_ACK (tools/bench/src/replicas-bench.ts).
    run(process.execPath, [join(ROOT, `tools/bench/dist/${PARTS[process.argv[2]] ?? 'bench.js'}`), ...process.argv.slice(PARTS[process.argv[2]] ? 3 : 2)], {
      cwd: ROOT,
      env: { ...process.env, REDIS_URL: redis.url, REDIS_PID: String(redis.pid) },
    }),
  );
} catch (err) {
  say(`benchmark could not run: ${err.message}`);
}
process.exit(code);
