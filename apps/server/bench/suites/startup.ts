import { startServerProcess } from '../lib/server-process';
import type { BenchContext } from '../run';

/**
 * Start-up time and memory of the compiled server (dist/main.js, what production runs) against the
 * same server through the TypeScript loader (tsx), on the embedded defaults and on PostgreSQL:
 * from spawning the process to a healthy /health, and its resident memory then and after serving a
 * little traffic. Runs alternate between the two so load on the machine falls on both alike. (bench/run.ts
 * builds dist/ before any suite.)
 */
export default async function startupBench(ctx: BenchContext) {
  const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const MiB = 1024 * 1024;

  for (const database of ['embedded', 'postgres'] as const) {
    const figures = {
      compiled: { start: [] as number[], rss: [] as number[], peak: [] as number[] },
      tsx: { start: [] as number[], rss: [] as number[], peak: [] as number[] },
    };
    for (let i = 0; i < runs; i++) {
      for (const runtime of i % 2 ? (['tsx', 'compiled'] as const) : (['compiled', 'tsx'] as const)) {
        const server = await startServerProcess({ LOG_LEVEL: 'warn' }, [], { runtime, database });
        try {
          const rssAtStart = server.rss();
          // a little traffic, the same for both: the docs page, the OpenAPI document, readiness
          for (let k = 0; k < 50; k++) {
            for (const p of ['/ready', '/api/openapi.json', '/daos']) {
              const res = await fetch(server.url + p);
              await res.arrayBuffer();
            }
          }
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
