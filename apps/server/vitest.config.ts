import { defineConfig } from 'vitest/config';

// Every integration test runs twice: on embedded PGlite and on a real PostgreSQL server
// (TEST_DATABASE_URL, started by scripts/test.sh when not given).
const projects = [{ name: 'pglite', env: { TEST_DB: 'pglite' } }];
if (process.env.TEST_DATABASE_URL) projects.push({ name: 'postgres', env: { TEST_DB: 'postgres' } });

export default defineConfig({
  test: {
    projects: projects.map((p) => ({
      extends: true,
      test: { name: p.name, env: p.env, include: ['test/**/*.test.ts'] },
    })),
    // the compiled server and tools (dist/), which the tests that start a real process run
    // and, for the pglite project, one empty PGlite cluster that each test app's database copies
    globalSetup: ['test/support/build.ts', 'test/support/pglite-template.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
