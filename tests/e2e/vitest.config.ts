import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each file starts its own gateway and workers; two files at a time suit a 2-core machine.
    maxWorkers: 2,
    pool: 'forks',
  },
});
