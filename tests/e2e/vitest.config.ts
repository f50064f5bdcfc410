import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each file starts its own gateway and workers: two files at a time suit a 2-core machine. On
    // one core (a small CI runner, `taskset -c 0`) a second file's start-up starves the first's
    // requests past the request path's 2 s Redis timeout, so one file at a time there. The count
    // follows the CPUs this process may run on (its affinity), not the machine's.
    maxWorkers: Math.max(1, Math.min(2, availableParallelism())),
    pool: 'forks',
  },
});
