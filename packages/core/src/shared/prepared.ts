import type { DbOrTx } from '@plenum/db';
import type { SQL } from 'drizzle-orm';

interface PreparingSession {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: string,
    isResponseInArrayMode: boolean,
  ): { execute(): Promise<unknown> };
}

/**
 * `db.execute(sql)` as a named prepared statement. postgres.js sends an unprepared statement with
 * parameters in two round trips (Parse/Describe, then Bind/Execute once the parameter types are back)
 * and stops pipelining behind it; a prepared one is described once per connection and then costs one
 * round trip. Only for SQL whose text does not vary (arrays as single parameters, not IN lists).
 * Returns rows (postgres.js) or { rows } (PGlite), as `execute` does.
 */
export function executePrepared(db: DbOrTx, name: string, query: SQL): Promise<unknown> {
  const d = db as unknown as {
    session: PreparingSession;
    dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } };
  };
  return d.session.prepareQuery(d.dialect.sqlToQuery(query), undefined, name, false).execute();
}

/** the rows of an execute/executePrepared result, whichever driver produced it */
export const rowsOf = <T>(result: unknown): T[] =>
  (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
