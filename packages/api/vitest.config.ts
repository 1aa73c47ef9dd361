import { defineConfig } from 'vitest/config';

// Integration tests of the routers through createCaller, each file on its own in-memory PGlite.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
