import { execFile } from 'node:child_process';
import path from 'node:path';
import { startTestApp, type TestApp } from './app';
import { freePort } from './server-process';

/**
 * The server on its embedded defaults in a data dir on disk, in this process (startTestApp with
 * `dataDir`), and the export command lines as real child processes. Closing the app keeps the data dir:
 * the exports read it afterwards.
 */
export const startOnDataDir = (dataDir: string, env: Record<string, string> = {}): Promise<TestApp> =>
  startTestApp({ dataDir, env });

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
