import { say } from './log.mjs';
import { aptInstall, canApt } from './apt.mjs';
import { which } from './run.mjs';

/**
 * Debian's redis-sentinel for the Sentinel failover test (tests/e2e/src/faults/redis-sentinel.test.ts):
 * its path when installed; else, as root with apt-get, installs the `redis-sentinel` package, as
 * redis-server is installed when missing; else null, and that test says how to install it.
 */
export async function ensureRedisSentinel() {
  const present = which('redis-sentinel');
  if (present) return present;
  if (!canApt()) {
    say('redis-sentinel is not installed and cannot be installed from here (needs root and apt-get): the Sentinel failover test will fail');
    return null;
  }
  const installed = await aptInstall('redis-sentinel');
  const path = which('redis-sentinel');
  if (!installed || !path) {
    say('installing redis-sentinel with apt-get failed: the Sentinel failover test will fail');
    return null;
  }
  return path;
}
