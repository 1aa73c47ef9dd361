import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshDatabase } from '../../test/support/app';

export interface ServerProcess {
  url: string;
  /** the server's own (fresh) database, for seeding or checking it directly; null when embedded */
  databaseUrl: string | null;
  pid: number;
  /** from spawning the process to its first healthy /health answer, in ms */
  startupMs: number;
  /** the highest resident set size so far in bytes (Linux /proc VmHWM) */
  peakRss(): number;
  /** resident set size of the server process in bytes (Linux /proc) */
  rss(): number;
  /** CPU time (user + system) the server process has used so far, in ms (Linux /proc) */
  cpuMs(): number;
  close(): Promise<void>;
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK) */
const CLOCK_TICKS = 100;

const serverDir = path.join(import.meta.dirname, '..', '..');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export interface ServerProcessOptions {
  /** `compiled` (default): dist/main.js as production runs it (build it first: `pnpm run build`); `tsx`: the sources through the TypeScript loader */
  runtime?: 'compiled' | 'tsx';
  /** `postgres` (default): a fresh database on TEST_DATABASE_URL; `embedded`: PGlite in the DATA_DIR */
  database?: 'postgres' | 'embedded';
  /** this DATA_DIR instead of a fresh temporary one, kept after close (a restart on existing data) */
  dataDir?: string;
  /**
   * false: without the `--liftoff-only` that `npm start` gives node (V8 then also optimises PGlite's
   * WebAssembly, as before docs/operations.md, "Memory of the embedded mode"), for the startup suite's baseline
   */
  liftoff?: boolean;
}

// the node flags `npm start` (scripts/start.sh) runs the compiled server with
const entry = {
  compiled: ['--enable-source-maps', '--liftoff-only', 'dist/main.js'],
  tsx: ['--import', 'tsx', 'src/main.ts'],
};

/**
 * The real server in its own process, on a fresh PostgreSQL database (or the embedded one) and a
 * temporary DATA_DIR, so a benchmark's client does not share its event loop (or its memory figures)
 * with the server.
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  /** extra node flags, e.g. --cpu-prof; BENCH_SERVER_NODE_ARGS (space-separated) adds more */
  nodeArgs: string[] = [],
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const embedded = options.database === 'embedded';
  const db = embedded ? { url: null, drop: async () => {} } : await freshDatabase();
  if (!embedded && !db.url) throw new Error('a server process needs PostgreSQL (TEST_DATABASE_URL)');
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'plenum-bench-server-'));
  const port = await freePort();
  const spawnedAt = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...nodeArgs,
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      ...entry[options.runtime ?? 'compiled'].filter(
        (a) => options.liftoff !== false || a !== '--liftoff-only',
      ),
    ],
    {
      cwd: serverDir,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        ...(db.url ? { DATABASE_URL: db.url } : {}),
        LOG_LEVEL: 'warn',
        RATE_LIMIT_DISABLED: 'true',
        APP_URL: 'http://localhost:3000',
        // the embedded IPFS node on the network as by default, on loopback and any free ports
        IPFS_SWARM_PORT: '0',
        IPFS_SWARM_HOST: '127.0.0.1',
        // BENCH_IPFS_OFFLINE=1: the same figures with the socket-free node, for comparison
        ...(process.env.BENCH_IPFS_OFFLINE ? { IPFS_OFFLINE: process.env.BENCH_IPFS_OFFLINE } : {}),
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cleanup = async () => {
    await db.drop();
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (true) {
    if (child.exitCode !== null) {
      await cleanup();
      throw new Error(`the server exited with ${child.exitCode} while starting`);
    }
    const up = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await cleanup();
      throw new Error('the server did not answer /health within 60 s');
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const startupMs = performance.now() - spawnedAt;
  const pid = child.pid!;
  const status = (field: string) => {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  };
  return {
    url,
    databaseUrl: db.url ?? null,
    pid,
    startupMs,
    rss: () => status('VmRSS'),
    peakRss: () => status('VmHWM'),
    cpuMs() {
      // fields 14 and 15 of /proc/<pid>/stat (after the parenthesised command name), in clock ticks
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    },
    async close() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(force);
      }
      await cleanup();
    },
  };
}
