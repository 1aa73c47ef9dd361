import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ServerProcess, startServerProcess } from '../lib/server-process';
import type { BenchContext } from '../run';

const MiB = 1024 * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** a little traffic, the same for every server: the docs page, the OpenAPI document, readiness */
async function traffic(server: ServerProcess) {
  for (let k = 0; k < 50; k++) {
    for (const p of ['/ready', '/api/openapi.json', '/daos']) {
      const res = await fetch(server.url + p);
      await res.arrayBuffer();
    }
  }
}

/**
 * Start-up time and memory of the compiled server (dist/main.js, what production runs): from spawning the
 * process to a healthy /health, and its resident memory then and after serving a little traffic.
 *
 * Embedded defaults (what `npm start` runs): against the same server with the embedded database's memory
 * settings of before (docs/operations.md, "Memory of the embedded mode": V8 optimising PGlite's
 * WebAssembly, PGLITE_SHARED_BUFFERS=128MB, PGLITE_MAINTENANCE_WORK_MEM=64MB), on a first start (an empty
 * DATA_DIR: the build's template database unpacked) and on a restart over that data. On PostgreSQL: against the
 * same server through the TypeScript loader (tsx). Runs alternate between the two sides so load on the
 * machine falls on both alike. (bench/run.ts builds dist/ before any suite.)
 */
export default async function startupBench(ctx: BenchContext) {
  const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
  await embedded(ctx, runs);
  await postgres(ctx, runs);
}

async function embedded(ctx: BenchContext, runs: number) {
  const settings = {
    now: { env: {}, liftoff: true },
    before: { env: { PGLITE_SHARED_BUFFERS: '128MB', PGLITE_MAINTENANCE_WORK_MEM: '64MB' }, liftoff: false },
  };
  const blank = () => ({ start: [] as number[], rss: [] as number[], peak: [] as number[] });
  const figures = {
    now: { first: blank(), restart: blank() },
    before: { first: blank(), restart: blank() },
  };
  for (let i = 0; i < runs; i++) {
    for (const side of i % 2 ? (['before', 'now'] as const) : (['now', 'before'] as const)) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'plenum-bench-startup-'));
      try {
        for (const start of ['first', 'restart'] as const) {
          const server = await startServerProcess({ LOG_LEVEL: 'warn', ...settings[side].env }, [], {
            database: 'embedded',
            dataDir,
            liftoff: settings[side].liftoff,
          });
          try {
            const rssAtStart = server.rss();
            await traffic(server);
            figures[side][start].start.push(server.startupMs);
            figures[side][start].rss.push(rssAtStart / MiB);
            figures[side][start].peak.push(server.peakRss() / MiB);
          } finally {
            await server.close();
          }
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  for (const start of ['first', 'restart'] as const) {
    const label = start === 'first' ? 'first start' : 'restart';
    const now = figures.now[start];
    const before = figures.before[start];
    const line = (name: string, unit: string, value: number, base: number, below: number) => {
      console.log(
        `embedded ${label} ${name}: ${value.toFixed(0)} ${unit}, before ${base.toFixed(0)} ${unit} (×${(value / base).toFixed(2)}; target < ${below})`,
      );
      ctx.record({
        name: `embedded (${label}): ${name}`,
        value,
        unit,
        baseline: { name: 'before (old PGlite memory settings)', value: base },
        target: { op: '<', value: below },
      });
    };
    line('start-up to healthy median', 'ms', median(now.start), median(before.start), 5000);
    line('RSS when healthy median', 'MiB', median(now.rss), median(before.rss), 400);
    line('peak RSS after 150 requests median', 'MiB', median(now.peak), median(before.peak), 600);
  }
}

async function postgres(ctx: BenchContext, runs: number) {
  for (const database of ['postgres'] as const) {
    const figures = {
      compiled: { start: [] as number[], rss: [] as number[], peak: [] as number[] },
      tsx: { start: [] as number[], rss: [] as number[], peak: [] as number[] },
    };
    for (let i = 0; i < runs; i++) {
      for (const runtime of i % 2 ? (['tsx', 'compiled'] as const) : (['compiled', 'tsx'] as const)) {
        const server = await startServerProcess({ LOG_LEVEL: 'warn' }, [], { runtime, database });
        try {
          const rssAtStart = server.rss();
          await traffic(server);
          figures[runtime].start.push(server.startupMs);
          figures[runtime].rss.push(rssAtStart / MiB);
          figures[runtime].peak.push(server.peakRss() / MiB);
        } finally {
          await server.close();
        }
      }
    }
    const c = figures.compiled;
    const t = figures.tsx;
    const line = (name: string, unit: string, value: number, base: number) => {
      console.log(
        `${database} ${name}: compiled ${value.toFixed(0)} ${unit}, tsx ${base.toFixed(0)} ${unit} (×${(value / base).toFixed(2)})`,
      );
      ctx.record({
        name: `${database}: ${name}`,
        value,
        unit,
        baseline: { name: 'tsx', value: base },
        target: { op: '<', value: 1, of: 'baseline' },
      });
    };
    line('start-up to healthy median', 'ms', median(c.start), median(t.start));
    line('RSS when healthy median', 'MiB', median(c.rss), median(t.rss));
    line('peak RSS after 150 requests median', 'MiB', median(c.peak), median(t.peak));
  }
}
