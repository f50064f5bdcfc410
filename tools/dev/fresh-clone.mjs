#!/usr/bin/env node
// `npm run check:fresh-clone`: what a new user (and CI) does. Clones the committed HEAD into an empty
// temporary folder, with nothing beside it, and runs `npm test` there, so a missing install step,
// an untracked file or a read outside the repository shows up here first.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib/bootstrap.mjs';
import { say } from './lib/log.mjs';
import { run } from './lib/run.mjs';

const dir = mkdtempSync(join(tmpdir(), 'rm-fresh-clone-'));
const target = join(dir, 'main');
let code = 1;
try {
  say(`cloning ${ROOT} into ${target} (nothing beside it)`);
  code = await run('git', ['clone', '--quiet', ROOT, target]);
  if (code === 0 && readdirSync(dir).length !== 1) throw new Error(`${dir} holds more than the clone`);
  if (code === 0) code = await run('npm', ['test'], { cwd: target, env: { ...process.env, CI: 'true' } });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
say(code === 0 ? 'fresh clone: npm test passed' : `fresh clone: npm test failed (exit ${code})`);
process.exit(code);
