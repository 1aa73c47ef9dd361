import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/**
 * The vote path's bound (vote-bound-server.mjs) in its own process, as startServerProcess runs the real
 * server: same database, same pool size, same kind of process.
 */
export async function startVoteBound(databaseUrl: string, poolSize: number) {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 'vote-bound-server.mjs')],
    {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        DATABASE_URL: databaseUrl,
        DATABASE_POOL_SIZE: String(poolSize),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code: number | null) =>
      reject(new Error(`the bound server exited with ${code} while starting`)),
    );
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
