import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgDump } from '@electric-sql/pglite-tools/pg_dump';

/**
 * Reading the embedded defaults out of DATA_DIR for a move to PostgreSQL and Kubo (docs/operations.md,
 * "Moving off the embedded defaults"): whether a database is there, whether a process holds it, and a
 * plain-SQL dump of it that a stock PostgreSQL (15 or later) imports.
 */

/** whether pgDir is a PGlite (PostgreSQL) data directory */
export function hasEmbeddedDatabase(pgDir: string): boolean {
  return existsSync(path.join(pgDir, 'PG_VERSION'));
}

export interface DirHolder {
  pid: number;
  /** its command line, shortened */
  command: string;
}

/**
 * Other processes that have a file open under dir, from Linux's /proc (PGlite keeps its relation files
 * open while a database is open). Empty where /proc does not exist; processes of other users are only
 * visible to root.
 */
export function processesHolding(dir: string): DirHolder[] {
  // /proc shows resolved paths: a DATA_DIR reached through a symbolic link must match them
  let real = path.resolve(dir);
  try {
    real = realpathSync(real);
  } catch {
    // not there: nothing can hold it
  }
  const prefix = `${real}${path.sep}`;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid);
  } catch {
    return [];
  }
  const holders: DirHolder[] = [];
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or another user's
    }
    const holds = fds.some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(prefix);
      } catch {
        return false;
      }
    });
    if (!holds) continue;
    let command = '';
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      // gone meanwhile
    }
    holders.push({ pid: Number(pid), command: command.length > 80 ? `${command.slice(0, 77)}...` : command });
  }
  return holders;
}

/**
 * Why the embedded data under dataDir must not be opened now, or undefined. PGlite is one process's
 * database and takes no lock: a second process opening it while the server runs would corrupt it. It
 * does write `postmaster.pid` while open and removes it on a clean close, so the file is also left
 * behind by a server that was killed; the message says how to clear that.
 */
export function embeddedDataInUse(dataDir: string): string | undefined {
  const [holder] = processesHolding(dataDir);
  if (holder)
    return `process ${holder.pid} (${holder.command || 'unknown'}) has files open in ${dataDir}: stop the Plenum server first`;
  const pgDir = path.join(dataDir, 'pg');
  if (existsSync(path.join(pgDir, 'postmaster.pid')))
    return `the embedded database in ${pgDir} is open (postmaster.pid exists): stop the Plenum server first; if it was killed, start it and stop it once, or pass --force`;
  return undefined;
}

/**
 * pg_dump options. `--inserts` (which PGlite's pg_dump always adds) writes rows as INSERT statements;
 * owners, grants and tablespaces are left out so the importing role owns everything. Not
 * `--quote-all-identifiers`: it also brings `COMMENT ON SCHEMA public`, which only the schema's owner
 * may run (pg_dump quotes every identifier that is a keyword in its own, newer version anyway).
 */
const DUMP_ARGS = [
  '--no-owner',
  '--no-privileges',
  '--no-tablespaces',
  '--no-statistics',
  '--rows-per-insert=100',
];

/**
 * What the dump of a newer PostgreSQL (PGlite is PostgreSQL 17 or later) contains that PostgreSQL 15
 * and 16 reject, and what to write instead. Only the session settings at the top differ today; the
 * schema and data statements are plain (test/db-export.test.ts imports a dump into PostgreSQL 15).
 */
const ADAPTATIONS: { pattern: RegExp; replacement: string; note: string }[] = [
  {
    pattern: /^SET transaction_timeout = [^;\n]*;\r?\n/gm,
    replacement: '',
    note: 'SET transaction_timeout removed (PostgreSQL 17 and later only)',
  },
];

/** A PGlite dump made importable by PostgreSQL 15 and later (see ADAPTATIONS). */
export function adaptDumpForPostgres(dump: string): string {
  const notes: string[] = [];
  let sql = dump;
  for (const a of ADAPTATIONS) {
    const next = sql.replace(a.pattern, a.replacement);
    if (next !== sql) notes.push(a.note);
    sql = next;
  }
  if (!notes.length) return sql;
  const header = `-- Adapted by Plenum's db:export for PostgreSQL 15 and later: ${notes.join('; ')}\n`;
  // after pg_dump's own header comments (the "Dumped from/by" lines), before the first statement
  const at = sql.search(/^(?!--|\s*$)/m);
  return at < 0 ? `${header}${sql}` : `${sql.slice(0, at)}${header}\n${sql.slice(at)}`;
}

export interface EmbeddedDump {
  /** the plain-SQL dump, adapted for PostgreSQL 15 and later */
  sql: string;
  /** the embedded server's version, e.g. "18.6" */
  serverVersion: string;
  /** rows in drizzle's migrations table; undefined when the table is missing (never migrated) */
  migrations: number | undefined;
}

/**
 * A plain-SQL dump of the PGlite database in pgDir by PGlite's own pg_dump (WASM), for `psql -f` into
 * an empty PostgreSQL database. The caller makes sure no other process has the database open
 * (embeddedDataInUse). The whole dump is built in memory.
 */
export async function dumpEmbeddedDatabase(pgDir: string): Promise<EmbeddedDump> {
  if (!hasEmbeddedDatabase(pgDir)) throw new Error(`no embedded database in ${pgDir}`);
  const pg = await PGlite.create({ dataDir: pgDir, extensions: { pg_trgm } });
  try {
    const version = await pg.query<{ server_version: string }>('show server_version');
    const migrations = await pg
      .query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations')
      .then(
        (r) => r.rows[0]?.n,
        () => undefined,
      );
    const file = await pgDump({ pg, args: DUMP_ARGS });
    return {
      sql: adaptDumpForPostgres(await file.text()),
      serverVersion: version.rows[0]?.server_version ?? 'unknown',
      migrations,
    };
  } finally {
    await pg.close();
  }
}
