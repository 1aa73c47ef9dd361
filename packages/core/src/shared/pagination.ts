import type { PgSelect } from 'drizzle-orm/pg-core';

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
