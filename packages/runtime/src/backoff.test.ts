import type { MinimalJob } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { exponentialJitterBackoff, MAX_BACKOFF_MS } from './backoff.js';

const job = (delay: number) => ({ opts: { backoff: { type: 'exponential-jitter', delay } } }) as unknown as MinimalJob;
const at = (attemptsMade: number, random: number, err?: Error, delay = 1000) => exponentialJitterBackoff(attemptsMade, 'exponential-jitter', err, job(delay), () => random);

describe('exponentialJitterBackoff', () => {
  it('doubles the ceiling with every failed attempt', () => {
    expect([1, 2, 3, 4].map((n) => at(n, 1))).toEqual([1000, 2000, 4000, 8000]);
  });

  it('jitters between half and all of the ceiling', () => {
    expect(at(3, 0)).toBe(2000);
    expect(at(3, 0.5)).toBe(3000);
    for (let i = 0; i < 100; i++) {
      const d = exponentialJitterBackoff(3, undefined, undefined, job(1000));
      expect(d).toBeGreaterThanOrEqual(2000);
      expect(d).toBeLessThanOrEqual(4000);
    }
  });

  it('never waits longer than the cap', () => {
    expect(at(40, 1)).toBe(MAX_BACKOFF_MS);
  });

  it("waits at least an error's retryAfterMs (a platform's 429 retry-after)", () => {
    const limited = Object.assign(new Error('rate limited'), { retryAfterMs: 7_500 });
    expect(at(1, 0, limited)).toBe(7_500);
    expect(at(5, 1, limited)).toBe(16_000);
  });
});
