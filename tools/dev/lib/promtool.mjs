import { say } from './log.mjs';
import { aptInstall, canApt } from './apt.mjs';
import { which } from './run.mjs';

/**
 * Prometheus's `promtool`, to check and unit-test the alerting rules of deploy/monitoring: its
 * path when it is installed; else, as root with apt-get, installs Debian's `prometheus` package
 * (which ships it) and returns its path; else null, and the rules' tests say why they fail.
 */
export async function ensurePromtool() {
  const present = which('promtool');
  if (present) return present;
  if (!canApt()) {
    say('promtool is not installed and cannot be installed from here (needs root and apt-get): the alerting rules\' tests will fail');
    return null;
  }
  const installed = await aptInstall('prometheus');
  const path = which('promtool');
  if (!installed || !path) {
    say('installing prometheus (for promtool) with apt-get failed: the alerting rules\' tests will fail');
    return null;
  }
  return path;
}
