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

/**
 * A command a test needs from Debian: its path when installed; else, as root with apt-get, installs
 * `pkg` (which ships it) and returns its path; else null, saying which tests will fail (`forWhat`).
 */
export async function ensureCommand(command, pkg, forWhat) {
  const present = which(command);
  if (present) return present;
  if (!canApt()) {
    say(`${command} is not installed and cannot be installed from here (needs root and apt-get): ${forWhat} will fail`);
    return null;
  }
  const installed = await aptInstall(pkg);
  const path = which(command);
  if (!installed || !path) {
    say(`installing ${pkg} (for ${command}) with apt-get failed: ${forWhat} will fail`);
    return null;
  }
  return path;
}
