// `npm run bench`: runs every suite in bench/suites (or those named on the command line) against real
// PostgreSQL (TEST_DATABASE_URL, started by scripts/bench.sh), printing figures and ratios against a
// baseline measured in the same run.
import { readdirSync } from 'node:fs';
import path from 'node:path';

export interface BenchContext {
  /** admin URL of the PostgreSQL server; suites create their own databases (see test/support/app.ts) */
  databaseUrl: string;
}

const dir = path.join(import.meta.dirname, 'suites');
const only = process.argv.slice(2);
const suites = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .filter((f) => !only.length || only.some((o) => f.includes(o)))
  .sort();

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) {
  console.error('TEST_DATABASE_URL is required (npm run bench starts a PostgreSQL server)');
  process.exit(2);
}
process.env.TEST_DB = 'postgres';

let failed = 0;
for (const file of suites) {
  console.log(`\n=== ${file.replace(/\.ts$/, '')} ===`);
  try {
    const mod = (await import(path.join(dir, file))) as { default: (ctx: BenchContext) => Promise<void> };
    await mod.default({ databaseUrl });
  } catch (err) {
    failed++;
    console.error(`suite ${file} failed:`, err);
  }
}
process.exit(failed ? 1 : 0);
