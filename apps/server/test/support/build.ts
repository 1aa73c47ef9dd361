import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Vitest's global setup: compiles the server and its command-line tools into dist/ once per run, so
 * the tests that start a real process run the JavaScript production runs (docs/operations.md,
 * "Production"). Unchanged files are left alone, so a run of one file costs well under a second.
 */
export default function setup() {
  execFileSync(process.execPath, ['build.mjs'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
