import type { DbOrTx } from '@plenum/db';
import type { SQL } from 'drizzle-orm';
import { internalBroken } from './dependency-version';

/**
 * FENCED INTERNAL (docs/internals.md, "Drizzle's session.prepareQuery"; the gain is recorded there).
 *
 * Relies on drizzle-orm's private `db.session.prepareQuery(query, fields, name, isResponseInArrayMode)`
 * and `db.dialect.sqlToQuery(sql)` (drizzle-orm 0.45): drizzle's public API prepares only query-builder
 * statements (`.prepare(name)`), and `db.execute(sql)` is never prepared. A name makes the postgres-js
 * driver send the statement with `prepare: true`. Nothing else in the code base touches these.
 * Canary: internals.test.ts ("prepared"), on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
interface PreparingSession {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: string,
    isResponseInArrayMode: boolean,
  ): { execute(): Promise<unknown> };
}

interface PrivateDb {
  session?: Partial<PreparingSession>;
  dialect?: { sqlToQuery?(q: SQL): { sql: string; params: unknown[] } };
}

/**
 * `db.execute(sql)` as a named prepared statement. postgres.js sends an unprepared statement with
 * parameters in two round trips (Parse/Describe, then Bind/Execute once the parameter types are back)
 * and stops pipelining behind it; a prepared one is described once per connection and then costs one
 * round trip. Only for SQL whose text does not vary (arrays as single parameters, not IN lists).
 * Returns rows (postgres.js) or { rows } (PGlite), as `execute` does.
 */
export function executePrepared(db: DbOrTx, name: string, query: SQL): Promise<unknown> {
  const { session, dialect } = db as unknown as PrivateDb;
  if (typeof session?.prepareQuery !== 'function' || typeof dialect?.sqlToQuery !== 'function')
    throw new Error(
      internalBroken('drizzle-orm', 'db.session.prepareQuery or db.dialect.sqlToQuery is gone'),
    );
  return session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false).execute();
}

/** the rows of an execute/executePrepared result, whichever driver produced it */
export const rowsOf = <T>(result: unknown): T[] =>
  (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
