import { defineConfig } from 'vitest/config';

// Chain tests: each file starts its own anvil(s) on free ports; the artifact test recompiles with solc-js.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
