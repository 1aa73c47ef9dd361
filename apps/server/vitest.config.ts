import { configDefaults, defineConfig } from 'vitest/config';

// Every integration test runs twice: on embedded PGlite and on a real PostgreSQL server
// (TEST_DATABASE_URL, started by scripts/test.sh when not given).
const databases: { name: string; exclude: string[] }[] = [{ name: 'pglite', exclude: [] }];
// Except the files that test nothing of the database (no query they cause differs between the two):
// they run once, on PGlite, which every run has.
const DATABASE_AGNOSTIC = [
  'test/env.test.ts', // parsing of the environment, no server
  'test/library-internals.test.ts', // canaries of library internals, no database
  'test/openapi.test.ts', // the OpenAPI document and the docs page
  'test/slow-clients.test.ts', // socket deadlines and per-address caps, decided before any route reads a table
  'test/storage-gateways.test.ts', // reads through IPFS gateways, which touch no table
  'test/storage-refused-upload.test.ts', // blocks of refused uploads, which are refused before any row is written
];
if (process.env.TEST_DATABASE_URL) databases.push({ name: 'postgres', exclude: DATABASE_AGNOSTIC });

// A worker runs one test file after another in one module graph (isolate: false): importing the server's
// graph again for each file was a third of the suite's time. Each file still starts its own apps on fresh
// databases. These files run isolated (a process each), in the project `<database>-isolated`
// (`vitest run --project 'pglite*'` runs both of a database):
const ISOLATED = [
  // they replace a module with vi.mock, which only takes if the server imports it in a graph of its own
  'test/account-password.test.ts',
  'test/auth-enumeration.test.ts',
  // they count what reaches a database proxy or relay, or what the process's handlers or memory see,
  // which a leftover of another file in the same process (a client reconnecting, garbage) must not touch
  'test/db-outage.test.ts',
  'test/health.test.ts',
  'test/patched-deps.test.ts',
  'test/storage-upload.test.ts',
];

export default defineConfig({
  test: {
    projects: databases.flatMap(({ name, exclude }) => [
      {
        extends: true,
        test: {
          name,
          env: { TEST_DB: name },
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...exclude, ...ISOLATED],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: `${name}-isolated`,
          env: { TEST_DB: name },
          include: ISOLATED.filter((f) => !exclude.includes(f)),
          isolate: true,
        },
      },
    ]),
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
