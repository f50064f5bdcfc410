import { existsSync } from 'node:fs';
import { say } from './log.mjs';
import { aptInstall, canApt } from './apt.mjs';
import { which } from './run.mjs';

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
  if (!canApt()) {
    say('chromium is not installed and cannot be installed from here (needs root and apt-get): the browser tests will fail');
    return null;
  }
  const installed = await aptInstall('chromium');
  const path = found();
  if (!installed || !path) {
    say('installing chromium with apt-get failed: the browser tests will fail');
    return null;
  }
  return path;
}
