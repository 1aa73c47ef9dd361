// `npm run bench`: runs every suite in bench/suites (or those named on the command line) against real
// PostgreSQL (TEST_DATABASE_URL, started by scripts/bench.sh), printing figures and ratios against a
// baseline measured in the same run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import path from 'node:path';

/**
 * A figure's bar: `value op target.value`, or with `of: 'baseline'` the ratio value / baseline.value
 * against it. `≈` means within ±25 % (a ratio that should be 1). A missed bar fails the run.
 */
export interface Target {
  op: '>=' | '<=' | '<' | '=' | '≈';
  value: number;
  of?: 'baseline';
}

/** One figure of a run, with the baseline it is judged against (measured in the same run). */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  target?: Target;
}

/** whether the figure meets its target (true when it has none) */
export function meets(f: Figure): boolean {
  if (!f.target) return true;
  const { op, value: bar, of } = f.target;
  const x = of === 'baseline' ? f.value / (f.baseline?.value ?? Number.NaN) : f.value;
  if (Number.isNaN(x)) return false;
  if (op === '>=') return x >= bar;
  if (op === '<=') return x <= bar;
  if (op === '<') return x < bar;
  if (op === '=') return x === bar;
  return Math.abs(x - bar) <= 0.25 * bar;
}

const targetText = (f: Figure) =>
  f.target ? `${f.target.of ? 'ratio ' : ''}${f.target.op} ${f.target.value}` : '';

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
type Recorded = Figure & { loadAverage: number; met: boolean };
const results: { suite: string; ok: boolean; figures: Recorded[] }[] = [];
const missed: { suite: string; figure: Recorded }[] = [];

let failed = 0;
for (const file of suites) {
  const suite = file.replace(/\.ts$/, '');
  console.log(`\n=== ${suite} ===`);
  const entry = { suite, ok: true, figures: [] as Recorded[] };
  results.push(entry);
  try {
    const mod = (await import(path.join(dir, file))) as { default: (ctx: BenchContext) => Promise<void> };
    await mod.default({
      databaseUrl,
      record(figure) {
        const recorded = { ...figure, loadAverage: Number(loadavg()[0]!.toFixed(2)), met: meets(figure) };
        entry.figures.push(recorded);
        if (!recorded.met) missed.push({ suite, figure: recorded });
        // every figure with the load average it was taken under (the machine is shared)
        const ratio = figure.baseline
          ? `, ${(figure.value / figure.baseline.value).toFixed(2)}× ${figure.baseline.name}`
          : '';
        const verdict = figure.target
          ? `, target ${targetText(figure)}: ${recorded.met ? 'met' : 'MISSED'}`
          : '';
        console.log(
          `  figure: ${figure.name}: ${figure.value.toFixed(2)} ${figure.unit}${ratio}${verdict} (load average ${recorded.loadAverage})`,
        );
      },
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
if (missed.length) {
  console.error(`\n${missed.length} target(s) MISSED:`);
  for (const { suite, figure: f } of missed)
    console.error(
      `  ${suite}: ${f.name}: ${f.value.toFixed(2)} ${f.unit}${f.baseline ? ` (${(f.value / f.baseline.value).toFixed(2)}× ${f.baseline.name})` : ''}, target ${targetText(f)} (load average ${f.loadAverage})`,
    );
}
if (failed) console.error(`\n${failed} suite(s) failed`);
process.exit(failed || missed.length ? 1 : 0);
