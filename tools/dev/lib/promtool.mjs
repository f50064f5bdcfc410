import { ensureCommand } from './apt.mjs';

/** Prometheus's `promtool`, to check and unit-test the alerting rules of deploy/monitoring: Debian's `prometheus` ships it. */
export const ensurePromtool = () => ensureCommand('promtool', 'prometheus', "the alerting rules' tests");
