import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const SERVER = path.resolve(import.meta.dirname, '../../server');

/**
 * Playwright's global setup: one empty PGlite data directory, just initialised (initdb in WASM takes
 * several seconds on a slow machine, and every test file starts a product of its own). startProduct
 * (product.ts) gives each product a copy of it; the server then applies every migration as on any
 * first start, so each file still runs on a fresh, empty database. PGlite is the server's dependency,
 * so the initdb runs in a Node process there.
 */
export default async function globalSetup() {
  const dir = mkdtempSync(path.join(tmpdir(), 'plenum-e2e-pglite-'));
  await promisify(execFile)(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const { PGlite } = await import('@electric-sql/pglite'); const pg = await PGlite.create({ dataDir: process.argv[1] }); await pg.close();",
      dir,
    ],
    { cwd: SERVER },
  );
  process.env.PLENUM_E2E_PGLITE_TEMPLATE = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
