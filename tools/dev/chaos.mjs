#!/usr/bin/env node
// `npm run chaos`: the fault scenarios of issue 51 at full length (CHAOS=long: Redis down 8 s
// under heavier load, the platforms down 10 minutes on the default retry schedule, the disk under
// SQLite full 3 minutes), one file at a time, then a table of what each acknowledged, stored and
// lost and how long recovery took.
// `npm run chaos -- redis` runs only the files whose name contains "redis". Not part of `npm test`.
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap, ROOT } from './lib/bootstrap.mjs';
import { say } from './lib/log.mjs';
import { withPrivateRedis } from './lib/private-redis.mjs';
import { run } from './lib/run.mjs';
import { ensureRedisSentinel } from './lib/sentinel.mjs';

/** The scenario files (tests/e2e/src/faults), each running its long form under CHAOS=long. */
const SCENARIOS = ['redis-restart', 'platforms-down', 'redis-sentinel', 'disk-full'];

/** The figures each test appended to `file` (tests/e2e/src/faults/chaos.ts), as a table. */
function table(rows) {
  const head = ['fault', 'acknowledged', 'stored', 'lost', 'recovery'];
  const cells = rows.map((r) => [r.fault, String(r.acknowledged), String(r.stored), String(r.lost), r.recoveryMs === null ? '-' : `${(r.recoveryMs / 1000).toFixed(1)} s`]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => `| ${c.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join(' | ')} |`;
  const notes = rows.filter((r) => r.note).map((r) => `- ${r.fault}: ${r.note}`);
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line), '', ...notes].join('\n');
}

const only = process.argv[2];
const files = SCENARIOS.filter((s) => !only || s.includes(only))
  .map((s) => `src/faults/${s}.test.ts`)
  .filter((f) => existsSync(join(ROOT, 'tests/e2e', f)));
let code = 1;
const dir = mkdtempSync(join(tmpdir(), 'rm-chaos-'));
const report = join(dir, 'figures.jsonl');
try {
  if (files.length === 0) throw new Error(`no scenario matches ${only}; there are: ${SCENARIOS.join(', ')}`);
  await bootstrap();
  if (files.some((f) => f.includes('sentinel'))) await ensureRedisSentinel();
  code = await withPrivateRedis('chaos', (redis) =>
    // One file at a time: each is a whole system under load, and they would skew each other's figures.
    run(join(ROOT, 'node_modules', '.bin', 'vitest'), ['run', '--no-file-parallelism', ...files], {
      cwd: join(ROOT, 'tests/e2e'),
      env: { ...process.env, REDIS_URL: redis.url, CHAOS: 'long', CHAOS_REPORT: report, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
    }),
  );
  const rows = existsSync(report) ? readFileSync(report, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  process.stdout.write(`\n${table(rows)}\n`);
  if (code !== 0) say('a scenario failed: see the test output above (its row, if any, is what it measured before failing)');
} catch (err) {
  say(`chaos could not run: ${err.message}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
