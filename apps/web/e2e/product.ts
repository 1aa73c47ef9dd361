import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';

const ROOT = path.resolve(import.meta.dirname, '../../..');

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

/** a server of the product exited while it started (its port taken meanwhile: EADDRINUSE) */
class ExitedWhileStarting extends Error {}

/** waits until `url` answers, as long as `alive()` holds (a dead server is not waited for) */
async function waitFor(url: string, alive: () => boolean = () => true, ms = 90_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive()) throw new ExitedWhileStarting(`the server for ${url} exited while starting`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/** A file's hooks start and stop the product: they get longer than a test (`timeout` in playwright.config.ts). */
export const HOOK_TIMEOUT = 180_000;

/**
 * The real product for browser tests: the API server (PGlite in a temp dir) and the built web app
 * (`next start`), each on a free port, driven by `browser`: Playwright's Debian Chromium
 * (playwright.config.ts at the repository root). `stop()` closes what the tests opened in it.
 * `webHost` names the web app's host in APP_URL and in the browser (it still listens on 127.0.0.1):
 * passkeys need `localhost`, since WebAuthn takes no IP address as its rp id.
 */
export async function startProduct(
  browser: Browser,
  envOrFn:
    | Record<string, string>
    | ((urls: { apiUrl: string; webUrl: string }) => Record<string, string>) = {},
  options: { webHost?: 'localhost' } = {},
) {
  // a free port is only free until another process takes it (another file's product, an IPFS swarm
  // port): a start whose server exited meanwhile tries again on other ports
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(browser, envOrFn, options);
    } catch (err) {
      if (attempt >= 3 || !(err instanceof ExitedWhileStarting)) throw err;
    }
  }
}

async function startOnce(
  browser: Browser,
  envOrFn: Record<string, string> | ((urls: { apiUrl: string; webUrl: string }) => Record<string, string>),
  options: { webHost?: 'localhost' },
) {
  const apiPort = await freePort();
  const webPort = await freePort();
  // a test that must name the API's address in its settings (an OpenID provider's callback) gets the URLs first
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const webUrl = `http://${options.webHost ?? '127.0.0.1'}:${webPort}`;
  const env = typeof envOrFn === 'function' ? envOrFn({ apiUrl, webUrl }) : envOrFn;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'plenum-e2e-'));
  // the embedded database starts from the initialised cluster of the global setup (no initdb per file)
  const template = process.env.PLENUM_E2E_PGLITE_TEMPLATE;
  if (template && !env.DATABASE_URL && !process.env.DATABASE_URL)
    cpSync(template, path.join(dataDir, 'pg'), { recursive: true });
  const children: ChildProcess[] = [];
  const common = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_DISABLED: 'true',
    // every file starts both servers again: Node keeps their compiled modules between starts
    NODE_COMPILE_CACHE: path.join(tmpdir(), 'plenum-e2e-compile-cache'),
    // the embedded IPFS node on the network as by default, on loopback and any free ports
    IPFS_SWARM_PORT: '0',
    IPFS_SWARM_HOST: '127.0.0.1',
    ...env,
  };
  const spawnApi = () =>
    spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
      cwd: path.join(ROOT, 'apps/server'),
      env: { ...common, PORT: String(apiPort), APP_URL: webUrl, CORS_ORIGINS: webUrl },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  const exited = (c: ChildProcess) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)));
  let api = spawnApi();
  children.push(
    api,
    spawn(
      process.execPath,
      ['node_modules/next/dist/bin/next', 'start', '-p', String(webPort), '-H', '127.0.0.1'],
      {
        cwd: path.join(ROOT, 'apps/web'),
        // server-side reads wait for a busy machine's API (lib/prefetch.tsx)
        env: { ...common, API_URL: apiUrl, NODE_ENV: 'production', PLENUM_WEB_PREFETCH_TIMEOUT: '60000' },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    ),
  );
  const running = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;
  try {
    await Promise.all([
      waitFor(`${apiUrl}/health`, () => running(api)),
      waitFor(`http://127.0.0.1:${webPort}`, () => running(children[1]!)),
    ]);
  } catch (err) {
    // a failed start must not leave the servers running: the test run would hang on them
    for (const c of children) c.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    apiUrl,
    webUrl,
    browser,
    /** An API outage: the server process ends (its WebSockets close) until `startApi()`. */
    async stopApi() {
      api.kill('SIGTERM');
      await exited(api);
    },
    /** The API again, on the same port and data, answering once this resolves. */
    async startApi() {
      api = spawnApi();
      children.push(api);
      await waitFor(`${apiUrl}/health`);
    },
    async stop() {
      // the browser belongs to Playwright's worker; the pages and contexts of this file's tests do not
      await Promise.all(browser.contexts().map((c) => c.close().catch(() => {})));
      for (const c of children) c.kill('SIGTERM');
      await Promise.all(children.map(exited));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
