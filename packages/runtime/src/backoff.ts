import type { MinimalJob } from 'bullmq';

/** The longest wait between two attempts, however many attempts came before. */
export const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * BullMQ backoff strategy for the catalog's `exponential-jitter` type: the job's base delay doubled
 * per failed attempt, capped, with "equal jitter" (between half and all of it) so jobs that failed
 * together do not all retry in the same instant. An error that carries `retryAfterMs` (a platform's
 * 429 `retry-after`) is never retried sooner than that.
 */
export function exponentialJitterBackoff(
  attemptsMade: number,
  _type?: string,
  err?: Error,
  job?: MinimalJob,
  random: () => number = Math.random,
  maxMs: number = MAX_BACKOFF_MS,
): number {
  const backoff = job?.opts.backoff;
  const base = typeof backoff === 'number' ? backoff : (backoff?.delay ?? 1000);
  // min() before the power overflows: a job retried forever reaches attempt 1,000 and beyond.
  const ceiling = Math.min(base * 2 ** Math.min(Math.max(0, attemptsMade - 1), 40), maxMs);
  const jittered = Math.round(ceiling / 2 + random() * (ceiling / 2));
  const retryAfter = (err as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  return typeof retryAfter === 'number' && retryAfter > jittered ? retryAfter : jittered;
}
