// `npm run bench`: runs every suite in bench/suites (or those named on the command line) against real
// PostgreSQL (TEST_DATABASE_URL, started by scripts/bench.sh), printing figures and ratios against a
// baseline measured in the same run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import path from 'node:path';

/** One figure of a run, with the baseline it is judged against (measured in the same run). */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  /** the bar, e.g. '>= 0.5' or '< 64' (as the suite prints it) */
  target?: string;
}

export interface BenchContext {
  /** admin URL of the PostgreSQL server; suites create their own databases (see test/support/app.ts) */
  databaseUrl: string;
  /** adds a figure to bench/results/latest.json (the suite still prints its own lines) */
  record(figure: Figure): void;
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

// the suites that start a server process run the compiled one (dist/main.js), as production does
execFileSync(process.execPath, ['build.mjs'], {
  cwd: path.join(import.meta.dirname, '..'),
  stdio: 'inherit',
});

const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
})();
const results: { suite: string; ok: boolean; figures: (Figure & { loadAverage: number })[] }[] = [];

let failed = 0;
for (const file of suites) {
  const suite = file.replace(/\.ts$/, '');
  console.log(`\n=== ${suite} ===`);
  const entry = { suite, ok: true, figures: [] as (Figure & { loadAverage: number })[] };
  results.push(entry);
  try {
    const mod = (await import(path.join(dir, file))) as { default: (ctx: BenchContext) => Promise<void> };
    await mod.default({
      databaseUrl,
      record: (figure) => entry.figures.push({ ...figure, loadAverage: Number(loadavg()[0]!.toFixed(2)) }),
    });
  } catch (err) {
    failed++;
    entry.ok = false;
    console.error(`suite ${file} failed:`, err);
  }
}

// every figure with its baseline, the machine and the commit, for tools and for comparing runs
const out = path.join(import.meta.dirname, 'results');
mkdirSync(out, { recursive: true });
const report = {
  commit,
  finishedAt: new Date().toISOString(),
  machine: {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? null,
    loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
    node: process.version,
  },
  suites: results,
};
writeFileSync(path.join(out, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nfigures written to ${path.relative(process.cwd(), path.join(out, 'latest.json'))}`);
process.exit(failed ? 1 : 0);
