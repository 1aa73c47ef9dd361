import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '../../..');

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

async function waitFor(url: string, ms = 90_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
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

/** Debian's Chromium, headless, with nothing that would reach the network by itself */
const launchChromium = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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

/**
 * The real product for browser tests: the API server (PGlite in a temp dir) and the built web app
 * (`next start`), each on a free port, and Debian's Chromium.
 */
export async function startProduct(env: Record<string, string> = {}) {
  const apiPort = await freePort();
  const webPort = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'plenum-e2e-'));
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const webUrl = `http://127.0.0.1:${webPort}`;
  const children: ChildProcess[] = [];
  const common = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_DISABLED: 'true',
    ...env,
  };
  children.push(
    spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.join(ROOT, 'apps/server'),
      env: { ...common, PORT: String(apiPort), APP_URL: webUrl, CORS_ORIGINS: webUrl },
      stdio: ['ignore', 'inherit', 'inherit'],
    }),
    spawn(
      process.execPath,
      ['node_modules/next/dist/bin/next', 'start', '-p', String(webPort), '-H', '127.0.0.1'],
      {
        cwd: path.join(ROOT, 'apps/web'),
        env: { ...common, API_URL: apiUrl, NODE_ENV: 'production' },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    ),
  );
  let browser: Browser;
  try {
    await Promise.all([waitFor(`${apiUrl}/health`), waitFor(webUrl)]);
    browser = await launchChromium();
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
    async stop() {
      await browser.close().catch(() => {});
      for (const c of children) c.kill('SIGTERM');
      await Promise.all(
        children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))),
      );
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
