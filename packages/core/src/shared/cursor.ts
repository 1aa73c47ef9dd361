import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { badRequest } from './errors';

/**
 * Keyset cursors (docs/api.md, "Lists"): the sort key of a page's last row and the list (and order) it
 * belongs to, as base64url JSON. Opaque to clients; anything else given as `after` (a cursor of another
 * list or order, an edited one) is a 400 on `after`, never a query that fails.
 */

/** how one value of a sort key is checked and compared */
export type KeyPart = 'time' | 'uuid' | 'text' | 'decimal';

const CHECKS: Record<KeyPart, RegExp> = {
  // to_char(… at time zone 'UTC') below: microseconds, which a JS Date would lose
  time: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  text: /^[^\0]{0,200}$/,
  decimal: /^\d{1,78}$/,
};

/** a timestamptz column as the cursor keeps it: UTC with its microseconds */
export const cursorTime = (column: PgColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export function encodeCursor(list: string, key: readonly string[]): string {
  return Buffer.from(JSON.stringify([list, ...key])).toString('base64url');
}

const invalid = () =>
  badRequest(
    'after is not a cursor of this list',
    [
      {
        path: 'after',
        message: 'not a cursor of this list: use a nextCursor it returned',
        code: 'invalid_format',
        params: { format: 'cursor' },
      },
    ],
    'VALIDATION_FAILED',
  );

/** the sort key in `after`, checked against the list and the kinds of its parts; a 400 on `after` otherwise */
export function decodeCursor(list: string, after: string, parts: readonly KeyPart[]): string[] {
  let decoded: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(after)) throw invalid();
    decoded = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(decoded) || decoded.length !== parts.length + 1 || decoded[0] !== list) throw invalid();
  const key = decoded.slice(1);
  parts.forEach((part, i) => {
    const v = key[i];
    if (typeof v !== 'string' || !CHECKS[part].test(v)) throw invalid();
    if (part === 'time' && Number.isNaN(Date.parse(v))) throw invalid();
  });
  return key as string[];
}

const CASTS: Record<KeyPart, string> = {
  time: 'timestamptz',
  uuid: 'uuid',
  text: 'text',
  decimal: 'numeric',
};

/**
 * The rows after `key` in an order of `columns` all descending (`before`: all ascending), as one row
 * comparison, which a btree index on the same columns reads from that point on.
 */
export function afterKey(
  columns: readonly (PgColumn | SQL)[],
  key: readonly string[],
  parts: readonly KeyPart[],
  direction: 'desc' | 'asc',
): SQL {
  const values = key.map((v, i) => sql`${v}::${sql.raw(CASTS[parts[i]!])}`);
  return sql`(${sql.join([...columns], sql`, `)}) ${sql.raw(direction === 'desc' ? '<' : '>')} (${sql.join(values, sql`, `)})`;
}
