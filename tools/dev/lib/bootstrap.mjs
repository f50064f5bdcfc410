import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { say } from './log.mjs';
import { run } from './run.mjs';

export const ROOT = new URL('../../../', import.meta.url).pathname.replace(/\/$/, '');

/** Environment for Nx: never a daemon, never a cloud. */
export const NX_ENV = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

function installIsCurrent() {
  const marker = join(ROOT, 'node_modules', '.package-lock.json');
  if (!existsSync(marker)) return false;
  return statSync(marker).mtimeMs >= statSync(join(ROOT, 'package-lock.json')).mtimeMs;
}

/** npm install when node_modules is missing or older than the lock file. */
export async function ensureInstalled() {
  if (installIsCurrent()) return;
  const fresh = !existsSync(join(ROOT, 'node_modules'));
  say(fresh ? 'installing dependencies (npm ci)' : 'dependencies changed: npm install');
  const code = await run('npm', fresh ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'], { cwd: ROOT });
  if (code !== 0) throw new Error('installing dependencies failed (see npm output above)');
}

/** Builds every project; Nx replays unchanged ones from its cache, so this is quick on a restart. */
export async function build() {
  const code = await run(join(ROOT, 'node_modules', '.bin', 'nx'), ['run-many', '-t', 'build', '--outputStyle=static'], { cwd: ROOT, env: NX_ENV });
  if (code !== 0) throw new Error('build failed (see output above)');
}

export async function bootstrap() {
  await ensureInstalled();
  await build();
}
