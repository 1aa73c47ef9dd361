import type { PgSelect } from 'drizzle-orm/pg-core';
import { badRequest } from './errors';

export interface Page {
  page: number;
  limit: number;
}

export interface Pagination extends Page {
  total: number;
  totalPages: number;
}

export const offsetOf = ({ page, limit }: Page) => (page - 1) * limit;

export const paginationOf = ({ page, limit }: Page, total: number): Pagination => ({
  total,
  page,
  limit,
  totalPages: Math.ceil(total / limit),
});

/**
 * One page of a list (docs/api.md, "Lists"): the rows of an ordered `$dynamic()` select, cut to the
 * page, and the total from a count, both read at once. Every paged list goes through here.
 */
export async function fetchPage<Q extends PgSelect>(
  page: Page,
  query: Q,
  total: PromiseLike<number> | PromiseLike<{ n: number | bigint }[]>,
): Promise<{ rows: Awaited<Q>; pagination: Pagination }> {
  const [rows, counted] = await Promise.all([query.limit(page.limit).offset(offsetOf(page)), total]);
  const n = typeof counted === 'number' ? counted : Number(counted[0]?.n ?? 0);
  return { rows: rows as Awaited<Q>, pagination: paginationOf(page, n) };
}

export interface CursorPage extends Page {
  /** a `nextCursor` of the same list: the page starts after its row (docs/api.md, "Lists") */
  after?: string | undefined;
}

/**
 * One page of a list that also pages by cursor: as fetchPage, reading one row more to know whether a
 * next page exists, with `nextCursor` (the last row's, null on the last page). With `after` the query
 * already starts after the cursor's row (afterKey): `page` must stay 1 (a 400 otherwise).
 */
export async function fetchCursorPage<Q extends PgSelect>(
  page: CursorPage,
  query: Q,
  total: number | PromiseLike<number> | PromiseLike<{ n: number | bigint }[]>,
  cursorOf: (row: Awaited<Q>[number]) => string,
): Promise<{ rows: Awaited<Q>; pagination: Pagination & { nextCursor: string | null } }> {
  if (page.after !== undefined && page.page !== 1)
    throw badRequest(
      'page and after cannot be combined: a cursor page starts after the cursor',
      [{ path: 'page', message: 'only 1 (the default) with after', code: 'invalid_value' }],
      'VALIDATION_FAILED',
    );
  const offset = page.after === undefined ? offsetOf(page) : 0;
  const [rows, counted] = await Promise.all([query.limit(page.limit + 1).offset(offset), total]);
  const n = typeof counted === 'number' ? counted : Number(counted[0]?.n ?? 0);
  const more = rows.length > page.limit;
  const shown = (more ? rows.slice(0, page.limit) : rows) as Awaited<Q>;
  return {
    rows: shown,
    pagination: {
      ...paginationOf(page, n),
      nextCursor: more ? cursorOf(shown[shown.length - 1] as Awaited<Q>[number]) : null,
    },
  };
}
