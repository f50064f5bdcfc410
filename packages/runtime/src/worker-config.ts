import { env } from './config.js';

/**
 * Variables every queue worker declares. A job's lock is renewed every half lock while the worker
 * lives; when a worker dies, another takes the job over once the lock has expired, found by a
 * stall check every half lock: at most 1.5 locks (12 s by default) after the death.
 */
export const workerConfigShape = {
  JOB_LOCK_MS: env.positiveInt(8_000),
  /** Where the worker's /health, /ready and /metrics listen (its METRICS_PORT is per worker). */
  METRICS_HOST: env.string('0.0.0.0'),
};
