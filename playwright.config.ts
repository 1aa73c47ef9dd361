import { defineConfig } from '@playwright/test';

/**
 * The web app's browser tests (apps/web/e2e, run by `pnpm --filter @plenum/web test:e2e`). Each file
 * starts the real product in its `beforeAll` (e2e/product.ts: the API server and the built web app) and
 * drives Debian's Chromium; files run one after another in one worker.
 */
export default defineConfig({
  testDir: 'apps/web/e2e',
  testMatch: '**/*.e2e.test.ts',
  // one initialised PGlite cluster that every product copies (e2e/global-setup.ts)
  globalSetup: './apps/web/e2e/global-setup.ts',
  // traces and screenshots are off; Playwright keeps only its last-run note here (gitignored)
  outputDir: 'apps/web/test-results',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  // per test; the hooks that start and stop the product set their own (HOOK_TIMEOUT in e2e/product.ts)
  timeout: 120_000,
  reporter: 'list',
  // screenshot baselines live next to the tests, one folder per test file, without a platform suffix:
  // they are made with Debian's Chromium, the one browser the tests run
  snapshotPathTemplate: '{testDir}/__screenshots__/{testFileName}/{arg}{ext}',
  expect: {
    toHaveScreenshot: {
      animations: 'disabled',
      caret: 'hide',
      scale: 'css',
      // a per-pixel colour tolerance for anti-aliasing, and a small share of pixels for text rendered a
      // hair differently on a busier machine; a moved, missing or restyled block is well over it
      threshold: 0.2,
      maxDiffPixelRatio: 0.01,
    },
  },
  use: {
    browserName: 'chromium',
    // Debian's Chromium (scripts/test.sh installs it), headless, with nothing that would reach the network by
    // itself; Playwright's own browser downloads are never used
    launchOptions: {
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
    },
  },
});
