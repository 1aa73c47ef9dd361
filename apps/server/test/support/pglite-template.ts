import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  interface ProvidedContext {
    /** an empty PGlite data directory, just initialised (initdb), no migrations (support/app.ts copies it) */
    pgliteTemplate: string;
  }
}

/**
 * Vitest's global setup, when the pglite project runs: initialises one empty PGlite data directory.
 * Creating a PGlite database runs initdb in WASM (several seconds on a slow machine), the largest part
 * of starting a test app; each test app instead starts on its own copy of this untouched cluster, then
 * applies every migration itself as before (createApp), so each still gets a fresh, empty database.
 */
export default async function setup(root: TestProject) {
  if (!root.vitest.projects.some((p) => p.config.env?.TEST_DB === 'pglite')) return;
  const dir = mkdtempSync(path.join(tmpdir(), 'plenum-pglite-template-'));
  const pg = await PGlite.create({ dataDir: dir });
  await pg.close();
  root.provide('pgliteTemplate', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
