import { existsSync } from 'node:fs';
import { say } from './log.mjs';
import { run, which } from './run.mjs';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

function found() {
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  return which('chromium');
}

/**
 * Debian's Chromium for the browser tests (the queue dashboard's screenshot): its path when it is
 * installed; else, as root with apt-get, installs the `chromium` package (never a browser download
 * of a test tool's own) and returns its path; else null, and the browser tests say why they fail.
 */
export async function ensureChromium() {
  const present = found();
  if (present) return present;
  const canApt = typeof process.getuid === 'function' && process.getuid() === 0 && which('apt-get');
  if (!canApt) {
    say('chromium is not installed and cannot be installed from here (needs root and apt-get): the browser tests will fail');
    return null;
  }
  say('chromium is missing: installing Debian\'s chromium with apt-get (once; it takes a while)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let code = await run('apt-get', ['install', '-y', '-qq', 'chromium'], { env });
  if (code !== 0) {
    await run('apt-get', ['update', '-qq'], { env });
    code = await run('apt-get', ['install', '-y', '-qq', 'chromium'], { env });
  }
  const path = found();
  if (code !== 0 || !path) {
    say('installing chromium with apt-get failed: the browser tests will fail');
    return null;
  }
  return path;
}
