#!/usr/bin/env node
// `npm run check:fresh-clone`: what CI does. Clones the committed HEAD into a temporary folder and
// runs `npm test` there (with ../shared beside it, as in CI), so a missing install step or an
// untracked file shows up here first.
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib/bootstrap.mjs';
import { say } from './lib/log.mjs';
import { run } from './lib/run.mjs';

const dir = mkdtempSync(join(tmpdir(), 'rm-fresh-clone-'));
const target = join(dir, 'main');
let code = 1;
try {
  say(`cloning ${ROOT} into ${target}`);
  code = await run('git', ['clone', '--quiet', ROOT, target]);
  // CI has the shared folder (the spec the tests read) beside the clone: so does this one.
  const shared = join(ROOT, '..', 'shared');
  if (existsSync(shared)) symlinkSync(shared, join(dir, 'shared'));
  if (code === 0) code = await run('npm', ['test'], { cwd: target, env: { ...process.env, CI: 'true' } });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
say(code === 0 ? 'fresh clone: npm test passed' : `fresh clone: npm test failed (exit ${code})`);
process.exit(code);
