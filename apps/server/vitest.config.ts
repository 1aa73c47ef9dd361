import { configDefaults, defineConfig } from 'vitest/config';

// Every integration test runs twice: on embedded PGlite and on a real PostgreSQL server
// (TEST_DATABASE_URL, started by scripts/test.sh when not given).
const databases: { name: string; exclude: string[] }[] = [{ name: 'pglite', exclude: [] }];
// Except the files that test nothing of the database (no query they cause differs between the two):
// they run once, on PGlite, which every run has.
const DATABASE_AGNOSTIC = [
  'test/env.test.ts', // parsing of the environment, no server
  'test/openapi.test.ts', // the OpenAPI document and the docs page
  'test/storage-gateways.test.ts', // reads through IPFS gateways, which touch no table
];
if (process.env.TEST_DATABASE_URL) databases.push({ name: 'postgres', exclude: DATABASE_AGNOSTIC });

export default defineConfig({
  test: {
    projects: databases.map(({ name, exclude }) => ({
      extends: true,
      test: {
        name,
        env: { TEST_DB: name },
        include: ['test/**/*.test.ts'],
        exclude: [...configDefaults.exclude, ...exclude],
      },
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
