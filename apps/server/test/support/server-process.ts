import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The API server as a real child process, compiled as production runs it (`dist/main.js`, built by the
 * tests' global setup), for tests about the process itself: that it
 * survives malformed requests, that it shuts down, that it keeps nothing it acknowledged when killed.
 */
const serverDir = path.resolve(import.meta.dirname, '../..');

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** everything the process wrote to stderr so far */
  stderr(): string;
  /** everything the process wrote to stdout so far (only with `options.stdout`) */
  stdout(): string;
  /** whether the process is still running */
  alive(): boolean;
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  dataDir?: string;
  /** more flags for node itself, before the script (ones NODE_OPTIONS refuses, such as --trace-gc) */
  nodeFlags?: string[];
  /** keep what the process writes to stdout (ignored otherwise) */
  stdout?: boolean;
}

export async function startServerProcess(
  env: Record<string, string | undefined>,
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  // a free port is only free until someone takes it: another test file may take it between the check and
  // the child's listen, so a start that lost its port tries again on another
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(env, options);
    } catch (err) {
      if (attempt >= 5 || env.PORT || !(err instanceof PortTaken)) throw err;
    }
  }
}

class PortTaken extends Error {}

async function startOnce(
  env: Record<string, string | undefined>,
  options: ServerProcessOptions,
): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'plenum-proc-'));
  const child = spawn(
    process.execPath,
    [...(options.nodeFlags ?? []), '--enable-source-maps', '--liftoff-only', 'dist/main.js'],
    {
      cwd: serverDir,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        // the embedded node joins the swarm as by default, on loopback and any free ports
        IPFS_SWARM_PORT: '0',
        IPFS_SWARM_HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        RATE_LIMIT_DISABLED: 'true',
        // many tests start the server: Node keeps its compiled modules between starts
        NODE_COMPILE_CACHE: path.join(tmpdir(), 'plenum-test-compile-cache'),
        ...env,
      },
      stdio: ['ignore', options.stdout ? 'pipe' : 'ignore', 'pipe'],
    },
  );
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const proc: ServerProcess = {
    url,
    port,
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    alive: () => !exited,
    async stop() {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await gone;
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  // wait for the condition (health answers), as long as the process lives; the test's timeout bounds it
  while (!exited) {
    try {
      if ((await fetch(`${url}/health`)).ok) return proc;
    } catch {
      // still starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  const Failure = stderr.includes('EADDRINUSE') ? PortTaken : Error;
  throw new Failure(`the server exited while starting:\n${stderr}`);
}
