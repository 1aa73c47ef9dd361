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
  /** how much of the connection pool the app is using now (metrics) */
  pool: PoolUse;
  close(): Promise<void>;
}

/**
 * The connection pool as the app uses it (docs/operations.md, "Metrics"). postgres.js exposes no pool
 * state, so the handle counts at the one place the app hands work to the pool: every statement outside a
 * transaction, every transaction (from `begin` to its commit or rollback) and every reserved connection
 * is one unit of `active` work, each needing a connection of its own while it runs. postgres.js gives
 * each new unit an idle (or not yet opened) connection before it ever shares one, so while `active` is
 * at most `size` it is the number of busy connections; the rest wait (queued, or pipelined behind a busy
 * connection's statement). The LISTEN connection of postgres.js is extra and not counted. PGlite is one
 * connection: units beyond the first wait for it.
 */
export interface PoolUse {
  /** connections the pool may open (postgres.js `max`; 1 for PGlite) */
  readonly size: number;
  /** connections busy with the app's work: min(active, size) */
  readonly inUse: number;
  /** units of work waiting for a connection: max(0, active − size) */
  readonly waiting: number;
}

/** Counts the app's units of work on a pool of `size` connections (see PoolUse). */
class PoolCounter implements PoolUse {
  private active = 0;
  private readonly done = () => {
    this.active--;
  };

  constructor(readonly size: number) {}

  get inUse() {
    return Math.min(this.active, this.size);
  }

  get waiting() {
    return Math.max(0, this.active - this.size);
  }

  /** counts `work` until it settles; attaching the handlers is what starts a lazy postgres.js query */
  track<P extends PromiseLike<unknown>>(work: P): P {
    this.active++;
    work.then(this.done, this.done);
    return work;
  }

  /**
   * The client with these methods counted: what drizzle is given, so every query and transaction it
   * sends is seen. Other properties come from the client itself (methods bound to it: PGlite's use
   * private fields), so calls the client makes internally (postgres.js' own BEGIN) are not counted twice.
   */
  counting<C extends object>(client: C, methods: readonly (keyof C & string)[]): C {
    const counted = new Map<PropertyKey, unknown>();
    for (const name of methods) {
      const fn = client[name] as (...args: unknown[]) => PromiseLike<unknown>;
      counted.set(name, (...args: unknown[]) => this.track(fn.apply(client, args)));
    }
    return new Proxy(client, {
      get(target, prop) {
        if (counted.has(prop)) return counted.get(prop);
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
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
  const pool = new PoolCounter(max);
  // drizzle sends every statement through `unsafe` and every transaction through `begin`
  const counted = pool.counting(client, ['unsafe', 'begin']);
  const db = drizzlePostgres({ client: counted, schema }) as unknown as Database;
  // the availability ping has a connection of its own: behind a busy pool it would miss its deadline and
  // call the database down while it answers (docs/operations.md, "Database outages")
  const pinger = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: connectTimeoutMs / 1000 });
  const ping = async () => {
    try {
      await pinger`select 1`.execute();
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
    pool,
    async listen(channel, onPayload) {
      const sub = await client.listen(channel, onPayload);
      return () => sub.unlisten();
    },
    async notify(channel, payload) {
      await pool.track(client`select pg_notify(${channel}, ${payload})`);
    },
    async migrate() {
      // the reserved connection is one unit of work until it is released
      let released = () => {};
      pool.track(new Promise<void>((resolve) => (released = resolve)));
      try {
        const reserved = await client.reserve();
        try {
          await reserved`select pg_advisory_lock(${MIGRATION_LOCK})`;
          await migratePostgres(drizzlePostgres({ client: counted }), { migrationsFolder: MIGRATIONS_DIR });
        } finally {
          await reserved`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
          reserved.release();
        }
      } finally {
        released();
      }
    },
    ping,
    async close() {
      availability.stop();
      await Promise.all([client.end({ timeout: 5 }), pinger.end({ timeout: 1 })]);
    },
  };
}

async function createPglite(dataDir: string | undefined): Promise<DbHandle> {
  // 'memory://' (tests) keeps everything in memory
  if (dataDir && !dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir ? { dataDir } : {});
  // one connection; drizzle sends every statement through `query` and every transaction through `transaction`
  const pool = new PoolCounter(1);
  const counted = pool.counting(client, ['query', 'transaction']);
  const db = drizzlePglite({ client: counted, schema }) as unknown as Database;
  // in-process: it cannot be unreachable, only closed
  const availability: Availability = { up: true, suspect() {}, check: async () => true, stop() {} };
  return {
    db,
    kind: 'pglite',
    availability,
    pool,
    async listen(channel, onPayload) {
      const unsub = await client.listen(channel, onPayload);
      return async () => unsub();
    },
    async notify(channel, payload) {
      await counted.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async migrate() {
      await migratePglite(drizzlePglite({ client: counted }), { migrationsFolder: MIGRATIONS_DIR });
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
