import { ensureCommand } from './apt.mjs';

/**
 * Debian's redis-sentinel for the Sentinel failover test (tests/e2e/src/faults/redis-sentinel.test.ts),
 * installed when missing as redis-server is.
 */
export const ensureRedisSentinel = () => ensureCommand('redis-sentinel', 'redis-sentinel', 'the Sentinel failover test');
