/** SQLSTATE of a driver error; drizzle wraps driver errors, the code sits on `cause`. */
export function sqlState(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isUniqueViolation = (err: unknown) => sqlState(err) === '23505';
export const isForeignKeyViolation = (err: unknown) => sqlState(err) === '23503';

/**
 * PostgreSQL gave up a transaction in a conflict with a concurrent one: a deadlock (40P01), a serialization
 * failure (40001) or a lock it could not get (55P03). Nothing of it was written; the same request sent again
 * succeeds (docs/operations.md, "Lock conflicts").
 */
export const isLockConflict = (err: unknown) => {
  const state = sqlState(err);
  return state === '40P01' || state === '40001' || state === '55P03';
};

/** Connection-level failures: the database is unreachable rather than the query being wrong. */
export function isConnectionError(err: unknown): boolean {
  const state = sqlState(err);
  if (state?.startsWith('08') || state === '57P01' || state === '57P03') return true;
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      [
        'ECONNREFUSED',
        'ECONNRESET',
        'CONNECT_TIMEOUT',
        'CONNECTION_CLOSED',
        'CONNECTION_ENDED',
        'CONNECTION_DESTROYED',
        'ETIMEDOUT',
        'DATABASE_TIMEOUT',
      ].includes(code)
    )
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
