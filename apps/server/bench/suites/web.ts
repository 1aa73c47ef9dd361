import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { memberUser } from '../../test/support/factories';
import { createDao, createProposal } from '../../test/support/governance';
import { apiClient } from '../../test/support/http';
import { runLoad } from '../lib/http-load';
import { startServerProcess } from '../lib/server-process';
import { seedSessionVoters } from '../lib/session-voters';
import type { BenchContext } from '../run';

/**
 * The public pages in Chromium (docs/operations.md, "Benchmarks"; docs/architecture.md, "How pages get
 * their data"): the built web app twice on one API, once rendering pages with their data on the server and
 * once without (PLENUM_WEB_SSR=0, the baseline), visited alternately. Per page: Largest Contentful Paint
 * (the last `largest-contentful-paint` entry once the page has settled, no input), Cumulative Layout Shift
 * (the plain sum of every `layout-shift` entry without recent input, which is never below the
 * session-window figure), both from the browser's own PerformanceObserver (buffered), and the JavaScript
 * it loaded (compressed bytes: Resource Timing's encodedBodySize of its scripts, a fresh browser context
 * each visit). Build the web app first (`pnpm exec turbo run build --filter=@plenum/web`).
 */
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5);
const VOTES = Number(process.env.BENCH_WEB_VOTES ?? 200);
const PROPOSALS = 12;
const SETTLE_MS = 1_500;

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const WEB_DIR = path.join(ROOT, 'apps/web');

/** the little of Playwright's API used here (it is the web app's dependency, loaded at run time) */
interface Page {
  on(event: 'console', f: (m: { type(): string; text(): string }) => void): void;
  on(event: 'pageerror', f: (e: Error) => void): void;
  goto(url: string, o: { waitUntil: 'load' }): Promise<unknown>;
  waitForLoadState(state: 'networkidle', o: { timeout: number }): Promise<void>;
  evaluate<R, A>(f: (a: A) => Promise<R>, a: A): Promise<R>;
}
interface Browser {
  newContext(o: {
    viewport: { width: number; height: number };
  }): Promise<{ newPage(): Promise<Page>; close(): Promise<void> }>;
  close(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function waitFor(url: string, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await fetch(url).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/** `next start` of the built app on `port`, reading the API at `apiUrl` */
function startWeb(port: number, apiUrl: string, ssr: boolean): ChildProcess {
  return spawn(
    process.execPath,
    ['node_modules/next/dist/bin/next', 'start', '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: WEB_DIR,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        API_URL: apiUrl,
        PLENUM_WEB_SSR: ssr ? '1' : '0',
        ...(process.env.NEXT_DIST_DIR ? { NEXT_DIST_DIR: process.env.NEXT_DIST_DIR } : {}),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

/** runs in the page: LCP, CLS and the scripts' compressed bytes, once the page has settled */
const MEASURE = (settleMs: number) =>
  new Promise<{ lcp: number; cls: number; js: number; scripts: number }>((resolve) => {
    let lcp = 0;
    let cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) lcp = e.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!e.hadRecentInput) cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
    setTimeout(() => {
      const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
        (r) => r.initiatorType === 'script' || /\.m?js(\?|$)/.test(r.name),
      );
      resolve({
        lcp,
        cls,
        js: scripts.reduce((sum, r) => sum + r.encodedBodySize, 0),
        scripts: scripts.length,
      });
    }, settleMs);
  });

async function visit(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {});
    const figures = await page.evaluate(MEASURE, SETTLE_MS);
    return { ...figures, errors };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export default async function webBench(ctx: BenchContext) {
  // Playwright comes with the web app's browser tests (its own dependency, not the server's)
  const { chromium } = createRequire(path.join(WEB_DIR, 'package.json'))('@playwright/test') as {
    chromium: { launch(o: unknown): Promise<Browser> };
  };
  const [onPort, offPort] = [await freePort(), await freePort()];
  const origins = [`http://127.0.0.1:${onPort}`, `http://127.0.0.1:${offPort}`];
  const api = await startServerProcess({ CORS_ORIGINS: origins.join(',') });
  const webs = [startWeb(onPort, api.url, true), startWeb(offPort, api.url, false)];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // as playwright.config.ts
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const sql = postgres(api.databaseUrl!, { max: 4, onnotice: () => {} });
  try {
    await Promise.all(origins.map((o) => waitFor(o)));
    // a DAO with proposals, the last one with votes, and its owner's profile
    const client = apiClient(api.url);
    const owner = await memberUser(client);
    const dao = await createDao(
      client,
      owner,
      { threshold: 50, minVotingPeriod: 0, tokenWeighted: false },
      { description: 'A DAO for the web bench: **markdown** description, members and proposals.' },
    );
    let proposalId = '';
    for (let i = 0; i < PROPOSALS; i++) {
      const p = await createProposal(client, owner, dao.daoId, {
        title: `Proposal ${i + 1}: fund the community garden for another season`,
        description: `## Why\n\nThe garden feeds ${i + 10} families. This proposal asks for seeds, tools and water.\n\n- seeds\n- tools\n- water`,
        votingOptions: ['For', 'Against', 'Abstain'],
        votingDurationHours: 48,
      });
      proposalId = p.proposalId;
    }
    const voters = await seedSessionVoters(sql, dao.daoId, VOTES);
    // a proposal takes its electorate when it opens: these members vote on a proposal made after them
    const voted = await createProposal(client, owner, dao.daoId, {
      title: 'Adopt the new meeting schedule for the spring season',
      description: 'Meetings move to Thursdays at 18:00.\n\nVotes are counted as usual.',
      votingOptions: ['For', 'Against', 'Abstain'],
      votingDurationHours: 48,
    });
    proposalId = voted.proposalId;
    const load = await runLoad(
      api.url,
      voters.map((v, i) => ({
        method: 'POST' as const,
        path: '/votes',
        token: v.token,
        body: JSON.stringify({
          proposalId,
          daoId: dao.daoId,
          voterAddress: v.address,
          choice: ['For', 'Against', 'Abstain'][i % 3],
        }),
      })),
      16,
    );
    console.log(`seeded: 1 DAO, ${PROPOSALS + 1} proposals, ${load.statuses['201'] ?? 0} votes`);

    const pages: [string, string][] = [
      ['home', '/'],
      ['DAO list', '/daos'],
      ['DAO', `/daos/${dao.daoId}`],
      ['proposal', `/proposals/${proposalId}`],
      ['profile', `/users/${owner.id}`],
    ];
    // one visit of each page and mode first, not counted: Next compiles its route on the first request
    for (const [, p] of pages) for (const o of origins) await visit(browser, o + p);

    for (const [name, p] of pages) {
      const figures = {
        on: [] as Awaited<ReturnType<typeof visit>>[],
        off: [] as Awaited<ReturnType<typeof visit>>[],
      };
      for (let i = 0; i < RUNS; i++) {
        // alternate which mode goes first, so the machine's load falls on both alike
        for (const mode of i % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const))
          figures[mode].push(await visit(browser, (mode === 'on' ? origins[0] : origins[1]) + p));
      }
      const on = {
        lcp: median(figures.on.map((f) => f.lcp)),
        cls: Math.max(...figures.on.map((f) => f.cls)),
        js: median(figures.on.map((f) => f.js)),
      };
      const off = {
        lcp: median(figures.off.map((f) => f.lcp)),
        cls: Math.max(...figures.off.map((f) => f.cls)),
        js: median(figures.off.map((f) => f.js)),
      };
      const load1 = loadavg()[0]!.toFixed(2);
      console.log(
        `${name} page LCP: ${on.lcp.toFixed(0)} ms, CLS: ${on.cls.toFixed(3)} (without server rendering: LCP ${off.lcp.toFixed(0)} ms, CLS ${off.cls.toFixed(3)}; load ${load1})`,
      );
      console.log(
        `${name} page JavaScript: ${(on.js / 1024).toFixed(0)} kB compressed (without: ${(off.js / 1024).toFixed(0)} kB)`,
      );
      const errors = [...new Set([...figures.on, ...figures.off].flatMap((f) => f.errors))];
      for (const e of errors) console.log(`  ${name} page console error: ${e.slice(0, 300)}`);
      ctx.record({
        name: `${name} page LCP`,
        value: Math.round(on.lcp),
        unit: 'ms',
        baseline: { name: 'without server rendering', value: Math.round(off.lcp) },
        ...(name === 'proposal' ? { target: { op: '<=', value: 1000 } } : {}),
      });
      ctx.record({
        name: `${name} page CLS (worst of ${RUNS})`,
        value: Number(on.cls.toFixed(3)),
        unit: '',
        baseline: { name: 'without server rendering', value: Number(off.cls.toFixed(3)) },
        target: { op: '<=', value: 0.1 },
      });
      ctx.record({
        name: `${name} page JavaScript`,
        value: Math.round(on.js / 1024),
        unit: 'kB',
        baseline: { name: 'without server rendering', value: Math.round(off.js / 1024) },
        target: { op: '<=', value: 300 },
      });
      // a hydration mismatch or any other console error on a page is a failure, not a footnote
      ctx.record({
        name: `${name} page console errors`,
        value: errors.length,
        unit: '',
        target: { op: '=', value: 0 },
      });
    }
  } finally {
    await sql.end();
    await browser.close();
    for (const w of webs) w.kill('SIGTERM');
    await Promise.all(
      webs.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.once('exit', r)))),
    );
    await api.close();
  }
}
