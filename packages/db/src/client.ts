import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { type Availability, watchAvailability } from './availability';
import * as schema from './schema/index';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Core functions take either the database or an open transaction. */
export type DbOrTx = Database | Tx;

/**
 * The repository's `drizzle/` folder, found upward from this module: the same code runs from
 * packages/db/src (development, tests) and bundled into apps/server/dist (docs/operations.md, "Production").
 */
export const MIGRATIONS_DIR = findMigrations(path.dirname(fileURLToPath(import.meta.url)));

function findMigrations(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'drizzle');
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`no drizzle/ migrations folder above ${from}`);
  }
}

export interface DbHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Subscribe to a NOTIFY channel; returns an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  /** whether the database answers; requests fail fast while it does not */
  availability: Availability;
  close(): Promise<void>;
}

export interface DbOptions {
  /** postgres:// URL; when absent an embedded PGlite database under dataDir is used */
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** pool size for postgres.js */
  maxConnections?: number | undefined;
  /** how long opening a connection may take before it fails (ms) */
  connectTimeoutMs?: number | undefined;
}

/** a /health ping answers within this (docs/operations.md, "Database outages") */
const PING_DEADLINE_MS = 400;
const PROBE_RETRY_MS = 250;

// Any fixed number works: it only has to be the same for every instance migrating one database.
const MIGRATION_LOCK = 727_001;

export async function createDb(options: DbOptions): Promise<DbHandle> {
  if (options.databaseUrl)
    return createPostgres(
      options.databaseUrl,
      options.maxConnections ?? 20,
      options.connectTimeoutMs ?? 1_000,
    );
  return createPglite(options.dataDir);
}

async function createPostgres(url: string, max: number, connectTimeoutMs: number): Promise<DbHandle> {
  const client = postgres(url, {
    max,
    onnotice: () => {},
    // a database that does not answer fails requests within about a second, not postgres.js's 30 s
    connect_timeout: connectTimeoutMs / 1000,
    // bigint/numeric come back as strings; keep them exact
    types: { bigint: postgres.BigInt },
  });
  const db = drizzlePostgres(client, { schema }) as unknown as Database;
  const ping = async () => {
    try {
      await client`select 1`.execute();
      return true;
    } catch {
      return false;
    }
  };
  const availability = watchAvailability({ ping, deadlineMs: PING_DEADLINE_MS, retryMs: PROBE_RETRY_MS });
  return {
    db,
    kind: 'postgres',
    availability,
    async listen(channel, onPayload) {
      const sub = await client.listen(channel, onPayload);
      return () => sub.unlisten();
    },
    async notify(channel, payload) {
      await client`select pg_notify(${channel}, ${payload})`;
    },
    async migrate() {
      const reserved = await client.reserve();
      try {
        await reserved`select pg_advisory_lock(${MIGRATION_LOCK})`;
        await migratePostgres(drizzlePostgres(client), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await reserved`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
        reserved.release();
      }
    },
    ping,
    async close() {
      availability.stop();
      await client.end({ timeout: 5 });
    },
  };
}

async function createPglite(dataDir: string | undefined): Promise<DbHandle> {
  // 'memory://' (tests) keeps everything in memory
  if (dataDir && !dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir ? { dataDir } : {});
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  // in-process: it cannot be unreachable, only closed
  const availability: Availability = { up: true, suspect() {}, check: async () => true, stop() {} };
  return {
    db,
    kind: 'pglite',
    availability,
    async listen(channel, onPayload) {
      const unsub = await client.listen(channel, onPayload);
      return async () => unsub();
    },
    async notify(channel, payload) {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async migrate() {
      await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR });
    },
    async ping() {
      try {
        await db.execute(sql`select 1`);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await client.close();
    },
  };
}
