import { execFile } from 'node:child_process';
import path from 'node:path';
import { createLogger } from '@plenum/core';
import { createApp } from '../../src/app';
import { loadEnv } from '../../src/env';
import type { TestApp } from './app';
import { freePort } from './server-process';

/**
 * The server on its embedded defaults in a data dir on disk (PGlite in DATA_DIR/pg, unless DATABASE_URL
 * is given, and the IPFS node in DATA_DIR/ipfs), in this process, and the export command lines as real
 * child processes. Closing the app keeps the data dir: the exports read it afterwards.
 */
export async function startOnDataDir(dataDir: string, env: Record<string, string> = {}): Promise<TestApp> {
  const loaded = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_DISABLED: 'true',
    APP_URL: 'http://localhost:3000',
    ...env,
  });
  const app = await createApp({ env: loaded, logger: createLogger({ level: loaded.LOG_LEVEL }) });
  const port = await app.listen(0, '127.0.0.1');
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    databaseUrl: loaded.DATABASE_URL,
    dataDir,
    close: () => app.close(),
  };
}

const serverDir = path.resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** a cold start of a compiled command with PGlite's WASM takes seconds; a busy machine, far more */
export const CLI_TIMEOUT_MS = 120_000;

/**
 * Runs the compiled command `dist/<name>.js` (built by the tests' global setup) as `npm run` does and
 * resolves with its exit code and output; it is killed after CLI_TIMEOUT_MS. The environment is this process's without DATABASE_URL, plus
 * `env`; PORT is a free one unless given (a developer's own server on 4000 must not decide a test).
 */
export async function runCli(
  name: 'db-export' | 'ipfs-export',
  args: string[],
  env: Record<string, string>,
): Promise<CliResult> {
  const base: NodeJS.ProcessEnv = { ...process.env, PORT: String(await freePort()) };
  delete base.DATABASE_URL;
  delete base.INIT_CWD;
  return new Promise<CliResult>((resolve) => {
    execFile(
      process.execPath,
      ['--enable-source-maps', `dist/${name}.js`, ...args],
      {
        cwd: serverDir,
        env: { ...base, LOG_LEVEL: 'silent', ...env },
        encoding: 'buffer',
        maxBuffer: 256 * 1024 * 1024,
        timeout: CLI_TIMEOUT_MS,
        killSignal: 'SIGKILL',
      },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: unknown }).code ?? null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, stdout, stderr: stderr.toString('utf8') });
      },
    );
  });
}
