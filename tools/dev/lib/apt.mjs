import { say } from './log.mjs';
import { run, which } from './run.mjs';

/** True when this process may install Debian packages (root, with apt-get). */
export const canApt = () => typeof process.getuid === 'function' && process.getuid() === 0 && Boolean(which('apt-get'));

/**
 * Installs a Debian package with apt-get, refreshing the package lists once if the first try
 * fails (a new machine has none). Resolves to true when apt-get succeeded.
 */
export async function aptInstall(pkg) {
  say(`${pkg} is missing: installing it with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if ((await run('apt-get', ['install', '-y', '-qq', pkg], { env })) === 0) return true;
  await run('apt-get', ['update', '-qq'], { env });
  return (await run('apt-get', ['install', '-y', '-qq', pkg], { env })) === 0;
}
