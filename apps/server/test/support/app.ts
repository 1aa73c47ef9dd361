import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Clock, createLogger, type Logger } from '@plenum/core';
import postgres from 'postgres';
import { inject } from 'vitest';
import { type App, createApp } from '../../src/app';
import { loadEnv } from '../../src/env';

/** Which database this test run uses: the vitest project sets TEST_DB (pglite | postgres). */
export const TEST_DB = (process.env.TEST_DB ?? 'pglite') as 'pglite' | 'postgres';

/**
 * A throwaway database for one test app: a fresh PostgreSQL database on the test server, or an
 * in-memory PGlite. Returns the DATABASE_URL to use (undefined for PGlite) and a cleanup.
 */
export async function freshDatabase(): Promise<{ url: string | undefined; drop: () => Promise<void> }> {
  if (TEST_DB !== 'postgres') return { url: undefined, drop: async () => {} };
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL (scripts/test.sh starts a server)');
  const name = `plenum_t_${randomBytes(6).toString('hex')}`;
  const sql = postgres(admin, { max: 1, onnotice: () => {} });
  await sql.unsafe(`create database ${name}`);
  await sql.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const s = postgres(admin, { max: 1, onnotice: () => {} });
      await s.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await s.end();
    },
  };
}

/**
 * A fresh embedded database for one test app: a copy, under its DATA_DIR, of the run's empty PGlite
 * cluster (support/pglite-template.ts), so the app skips initdb but still migrates an empty database.
 */
export function freshPgliteDir(dataDir: string): string {
  const dir = path.join(dataDir, 'pg');
  cpSync(inject('pgliteTemplate'), dir, { recursive: true });
  return dir;
}

export interface TestApp {
  app: App;
  url: string;
  /** same database URL, for a second instance or direct checks (undefined on PGlite) */
  databaseUrl: string | undefined;
  dataDir: string;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** reuse another app's database (two instances on one Postgres) */
  databaseUrl?: string;
  /** wrap the app's logger (to record what it logs) */
  logger?: (base: Logger) => Logger;
  /**
   * an on-disk DATA_DIR the caller owns (the embedded defaults as `npm start` runs them: PGlite in
   * DATA_DIR/pg unless env has DATABASE_URL, the IPFS node in DATA_DIR/ipfs); no test database is
   * created and close() keeps the directory
   */
  dataDir?: string;
  /** the address to listen on (default 127.0.0.1); `url` stays the loopback one */
  host?: string;
  /** the port to listen on (default: any free one), for a test that must name the URL before the start */
  port?: number;
}

export async function startTestApp(options: StartOptions = {}): Promise<TestApp> {
  const given = options.dataDir ? (options.env?.DATABASE_URL ?? null) : options.databaseUrl;
  const db = given !== undefined ? { url: given ?? undefined, drop: async () => {} } : await freshDatabase();
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'plenum-test-'));
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_DISABLED: 'true',
    APP_URL: 'http://localhost:3000',
    // registration's terms as an operator sets them; a test of the unset case passes TERMS_URL: ''
    TERMS_URL: 'https://example.org/terms',
    // in-process test apps run the embedded node without sockets; the swarm's own tests turn it on
    IPFS_OFFLINE: 'true',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    ...options.env,
  });
  const app = await createApp({
    env,
    clock: options.clock,
    logger: (options.logger ?? ((l) => l))(createLogger({ level: env.LOG_LEVEL })),
    pgliteDir: db.url || options.dataDir ? undefined : freshPgliteDir(dataDir),
  });
  const port = await app.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    databaseUrl: db.url,
    dataDir,
    async close() {
      await app.close();
      await db.drop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
