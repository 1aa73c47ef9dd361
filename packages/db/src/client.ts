import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
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
  /** ms a statement, or a transaction's COMMIT, may go unanswered (see Deadlines); 0 or absent = none */
  statementTimeoutMs?: number | undefined;
  /** ms a transaction may wait for a connection and its BEGIN (see Deadlines); 0 or absent = none */
  acquireTimeoutMs?: number | undefined;
  /** the embedded database's memory (PGlite only; see EmbeddedMemory) */
  embedded?: EmbeddedMemory | undefined;
  /**
   * A first start's database (PGlite only; see EMBEDDED_TEMPLATE_FILE): by default the template beside this
   * module when there is one (the build writes it into dist/); null for none (initdb and every migration).
   */
  embeddedTemplate?: string | null | undefined;
}

/**
 * The embedded database's template: a new PGlite database with every migration applied, dumped by
 * `pnpm run build` beside the compiled server (dist/). A first start over an empty DATA_DIR unpacks it
 * instead of running initdb (in a second, in-memory PGlite) and every migration: less memory and time
 * (docs/operations.md, "Memory of the embedded mode"). Migrations newer than the template still run.
 */
export const EMBEDDED_TEMPLATE_FILE = 'embedded-template.tar.gz';
const DEFAULT_TEMPLATE = path.join(path.dirname(fileURLToPath(import.meta.url)), EMBEDDED_TEMPLATE_FILE);

/** Writes the template (EMBEDDED_TEMPLATE_FILE) to `file`: a new in-memory database, migrated, dumped. */
export async function writeEmbeddedTemplate(file: string): Promise<number> {
  const handle = await createPglite(undefined, { ...EMBEDDED_MEMORY_DEFAULTS }, null);
  let tar: Buffer;
  try {
    await handle.migrate();
    // a first start then replays no WAL: the migrations are in the data files (about a second less)
    await handle.pglite!.exec('checkpoint');
    tar = Buffer.from(await (await handle.pglite!.dumpDataDir('gzip')).arrayBuffer());
  } finally {
    await handle.close();
  }
  // replaced by a rename: a server starting from dist/ meanwhile reads the old template or the new one
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, tar);
  renameSync(tmp, file);
  return tar.length;
}

/**
 * What the embedded PostgreSQL (PGlite, WebAssembly) may hold in memory (docs/operations.md, "Memory of
 * the embedded mode"). Its WebAssembly memory grows and never shrinks, so these bound the process's
 * resident size; PostgreSQL's own defaults (128 MB of shared buffers) suit a machine of its own.
 */
export interface EmbeddedMemory {
  /** PostgreSQL's shared_buffers, e.g. '16MB' (the page cache inside the WebAssembly memory) */
  sharedBuffers?: string | undefined;
  /** PostgreSQL's maintenance_work_mem, e.g. '16MB' (index builds, VACUUM: migrations) */
  maintenanceWorkMem?: string | undefined;
}

/** the embedded database's memory when nothing is configured (EmbeddedMemory) */
export const EMBEDDED_MEMORY_DEFAULTS = {
  sharedBuffers: '16MB',
  maintenanceWorkMem: '16MB',
} as const satisfies Required<EmbeddedMemory>;

/**
 * The database did not answer within a deadline (docs/operations.md, "Database outages"): treated as a
 * connection failure (503 DATABASE_UNAVAILABLE with Retry-After, and an availability probe).
 */
export class DatabaseTimeout extends Error {
  readonly code = 'DATABASE_TIMEOUT';
}

interface Deadlines {
  statementMs: number;
  acquireMs: number;
}

/** `work`'s outcome, or a DatabaseTimeout after `ms` (then `onTimeout` runs; `work` goes on unobserved) */
function withDeadline<T>(work: PromiseLike<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  if (!ms) return Promise.resolve(work);
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout?.();
      reject(new DatabaseTimeout(`The database did not answer ${what} within ${ms} ms`));
    }, ms);
    timer.unref?.();
    work.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

type Query = PromiseLike<unknown> & Record<string, unknown>;

/**
 * A postgres.js query (a lazy thenable: drizzle calls `.values()` on it, then awaits it) whose await
 * rejects with a DatabaseTimeout once it went unanswered for `ms`. The statement itself is not cancelled
 * (a cancel needs a new connection to a server that does not answer); the server's own statement_timeout
 * ends one that is merely slow.
 */
function timedQuery(query: Query, ms: number, onTimeout?: () => void): Query {
  let raced: Promise<unknown> | null = null;
  const race = () => {
    raced ??= withDeadline(query, ms, 'a statement', onTimeout);
    return raced;
  };
  const proxy: Query = new Proxy(query, {
    get(target, prop) {
      if (prop === 'then')
        return (ok?: (v: unknown) => unknown, fail?: (e: unknown) => unknown) => race().then(ok, fail);
      if (prop === 'catch') return (fail: (e: unknown) => unknown) => race().catch(fail);
      if (prop === 'finally') return (f: () => void) => race().finally(f);
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      // the modifiers (values, raw, describe…) return the query itself: keep returning the proxy
      return (...args: unknown[]) => {
        const out: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        return out === target ? proxy : out;
      };
    },
  });
  return proxy;
}

// the app's client parses bigint (createPostgres); these wrappers never look at values
type Sql = postgres.Sql<{ bigint: bigint }>;

/**
 * The transaction's connection as drizzle sees it: each statement with its deadline (a miss abandons the
 * whole transaction at once: `abandon`), savepoints likewise.
 */
function timedTransactionSql(sql: postgres.TransactionSql, d: Deadlines, abandon: (e: unknown) => void) {
  return new Proxy(sql, {
    get(target, prop) {
      if (prop === 'unsafe')
        return (...args: Parameters<postgres.TransactionSql['unsafe']>) =>
          timedQuery(target.unsafe(...args) as unknown as Query, d.statementMs, () =>
            abandon(
              new DatabaseTimeout(`The database did not answer a statement within ${d.statementMs} ms`),
            ),
          );
      if (prop === 'savepoint')
        return (...args: unknown[]) => {
          const fn = args.pop() as (s: postgres.TransactionSql) => unknown;
          return (target.savepoint as (...a: unknown[]) => Promise<unknown>)(
            ...args,
            (s: postgres.TransactionSql) => fn(timedTransactionSql(s, d, abandon)),
          );
        };
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * `begin` with deadlines (docs/operations.md, "Database outages"): the transaction must get its
 * connection and BEGIN within `acquireMs`, each statement must answer within `statementMs`, and so must
 * the COMMIT. A miss rejects the caller at once with a DatabaseTimeout. Before the body has run, a miss
 * means nothing will be written: a body that gets its connection late throws before doing anything. A
 * miss on the COMMIT is the one uncertain case: the database may still commit when it answers again.
 */
function timedBegin(client: Sql, d: Deadlines, track: <P extends PromiseLike<unknown>>(work: P) => P) {
  return (...args: unknown[]): Promise<unknown> => {
    const fn = args.pop() as (sql: postgres.TransactionSql) => unknown;
    return new Promise((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const abandon = (e: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(e);
      };
      const arm = (ms: number, what: string) => {
        clearTimeout(timer);
        if (!ms) return;
        timer = setTimeout(
          () => abandon(new DatabaseTimeout(`The database did not answer ${what} within ${ms} ms`)),
          ms,
        );
        timer.unref?.();
      };
      arm(d.acquireMs, 'with a connection for a transaction');
      const work = (client.begin as (...a: unknown[]) => Promise<unknown>)(
        ...args,
        async (sql: postgres.TransactionSql) => {
          // abandoned while waiting for the connection: the caller was answered, do nothing
          if (settled) throw new DatabaseTimeout('The transaction was abandoned before it began');
          clearTimeout(timer);
          const out = await fn(timedTransactionSql(sql, d, abandon));
          if (settled) throw new DatabaseTimeout('The transaction was abandoned');
          arm(d.statementMs, 'the COMMIT');
          return out;
        },
      );
      track(work).then(
        (v) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(v);
        },
        (e: unknown) => abandon(e),
      );
    });
  };
}

/** a /health ping answers within this (docs/operations.md, "Database outages") */
const PING_DEADLINE_MS = 400;
const PROBE_RETRY_MS = 250;

// Any fixed number works: it only has to be the same for every instance migrating one database.
const MIGRATION_LOCK = 727_001;

/**
 * The client drizzle is given, with deadlines: a statement outside a transaction must answer within
 * acquire + statement time (it may first wait for a connection), a transaction as in timedBegin.
 */
function timed(counted: Sql, client: Sql, d: Deadlines, pool: PoolCounter): Sql {
  if (!d.statementMs && !d.acquireMs) return counted;
  const begin = timedBegin(client, d, (work) => pool.track(work));
  return new Proxy(counted, {
    get(target, prop) {
      if (prop === 'unsafe')
        return (...args: Parameters<Sql['unsafe']>) =>
          timedQuery(target.unsafe(...args) as unknown as Query, d.statementMs + d.acquireMs);
      if (prop === 'begin') return begin;
      return Reflect.get(target, prop, target);
    },
  });
}

export async function createDb(options: DbOptions): Promise<DbHandle> {
  if (options.databaseUrl)
    return createPostgres(
      options.databaseUrl,
      options.maxConnections ?? 20,
      options.connectTimeoutMs ?? 1_000,
      {
        statementMs: options.statementTimeoutMs ?? 0,
        acquireMs: options.acquireTimeoutMs ?? 0,
      },
    );
  return createPglite(
    options.dataDir,
    { ...EMBEDDED_MEMORY_DEFAULTS, ...definedOnly(options.embedded ?? {}) },
    options.embeddedTemplate === undefined ? DEFAULT_TEMPLATE : options.embeddedTemplate,
  );
}

const definedOnly = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

async function createPostgres(
  url: string,
  max: number,
  connectTimeoutMs: number,
  deadlines: Deadlines,
): Promise<DbHandle> {
  const client = postgres(url, {
    max,
    onnotice: () => {},
    // a database that does not answer fails requests within about a second, not postgres.js's 30 s
    connect_timeout: connectTimeoutMs / 1000,
    // bigint/numeric come back as strings; keep them exact
    types: { bigint: postgres.BigInt },
    // the server ends a statement that is only slow (the client's deadline below abandons it)
    ...(deadlines.statementMs ? { connection: { statement_timeout: deadlines.statementMs } } : {}),
  });
  const pool = new PoolCounter(max);
  // drizzle sends every statement through `unsafe` and every transaction through `begin`
  const counted = timed(pool.counting(client, ['unsafe', 'begin']), client, deadlines, pool);
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
          // waiting for another instance's migration, and a migration itself, may take longer than a
          // request's statement: no deadline here, and the migration on a connection of its own without one
          await reserved`set statement_timeout = 0`;
          await reserved`select pg_advisory_lock(${MIGRATION_LOCK})`;
          const own = postgres(url, {
            max: 1,
            onnotice: () => {},
            connect_timeout: connectTimeoutMs / 1000,
            types: { bigint: postgres.BigInt },
          });
          try {
            await migratePostgres(drizzlePostgres({ client: own }), { migrationsFolder: MIGRATIONS_DIR });
          } finally {
            await own.end({ timeout: 5 });
          }
        } finally {
          await reserved`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
          await reserved`reset statement_timeout`.catch(() => {});
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

/**
 * One full garbage collection now. On its first start over an empty directory PGlite runs initdb, when
 * there is no template, in a second, in-memory PGlite (its own 128 MiB WebAssembly memory and a copy of
 * the new data directory): about 250 MB that stay resident, though unreachable, until V8 next collects,
 * which a server that has just started may not do for a long time; from a template, the unpacked tar
 * (40 MB) (docs/operations.md, "Memory of the embedded mode").
 */
function collectGarbage() {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  gc?.();
  // the WebAssembly memories' backing stores are released by the collection after the one that found them dead
  setImmediate(() => gc?.());
}

/**
 * Unpacks the template (a tar, gzipped, as PGlite's dumpDataDir writes it) into the empty dataDir, so
 * PGlite opens it as it opens a database on a restart. PGlite's own `loadDataDir` does the same through
 * its WebAssembly file system and leaves about 90 MB more resident. PG_VERSION, which marks a database
 * there, is written last: an unpacking cut short is redone on the next start.
 */
function unpackTemplate(template: string, dataDir: string) {
  const tar = gunzipSync(readFileSync(template));
  let version: Buffer | undefined;
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const field = (offset: number, length: number) =>
      header
        .subarray(offset, offset + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const prefix = field(257, 5) === 'ustar' ? field(345, 155) : '';
    const name = path.posix.normalize(`${prefix ? `${prefix}/` : ''}${field(0, 100)}`).replace(/^\/+/, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1) || '0';
    if (name.startsWith('..')) throw new Error(`${template}: an entry outside the data directory (${name})`);
    const target = path.join(dataDir, name);
    const body = tar.subarray(at + 512, at + 512 + size);
    if (type === '5') mkdirSync(target, { recursive: true });
    else if (type === '0') {
      mkdirSync(path.dirname(target), { recursive: true });
      if (name === 'PG_VERSION') version = body;
      else writeFileSync(target, body);
    } else
      throw new Error(
        `${template}: an entry of type ${type} (${name}) where files and folders were expected`,
      );
    at += 512 + Math.ceil(size / 512) * 512;
  }
  if (!version) throw new Error(`${template}: no PG_VERSION, not a PGlite data directory`);
  writeFileSync(path.join(dataDir, 'PG_VERSION'), version);
}

async function createPglite(
  dataDir: string | undefined,
  memory: Required<EmbeddedMemory>,
  template: string | null,
): Promise<DbHandle & { pglite?: PGlite }> {
  // 'memory://' (tests) keeps everything in memory
  if (dataDir && !dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const firstStart =
    !!dataDir && !dataDir.startsWith('memory://') && !existsSync(path.join(dataDir, 'PG_VERSION'));
  // without a template (a server run from its sources, a build that has none) PGlite runs initdb
  if (dataDir && firstStart && template !== null && existsSync(template)) unpackTemplate(template, dataDir);
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    // pg_trgm: the admin search's trigram indexes (docs/architecture.md, "Lists at scale")
    extensions: { pg_trgm },
    // PGlite's own start parameters (single-user mode, fsync off, no workers) and the memory settings
    startParams: [
      ...PGlite.defaultStartParams,
      ...['-c', `shared_buffers=${memory.sharedBuffers}`],
      ...['-c', `maintenance_work_mem=${memory.maintenanceWorkMem}`],
    ],
  });
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
    pglite: client,
    async listen(channel, onPayload) {
      const unsub = await client.listen(channel, onPayload);
      return async () => unsub();
    },
    async notify(channel, payload) {
      await counted.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async migrate() {
      await migratePglite(drizzlePglite({ client: counted }), { migrationsFolder: MIGRATIONS_DIR });
      if (firstStart) collectGarbage();
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
