import { users, userTotals } from '@plenum/db';
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Services } from '../../services';
import { likePattern } from '../../shared/like';
import { offsetOf, type Page, paginationOf } from '../../shared/pagination';

export interface ListUsersParams extends Page {
  status?: 'pending_verification' | 'active' | 'suspended' | undefined;
  role?: 'user' | 'admin' | undefined;
  search?: string | undefined;
  sort?: 'createdAt' | 'lastLoginAt' | 'email' | 'name' | 'status' | 'role' | undefined;
  order?: 'asc' | 'desc' | undefined;
}

/**
 * the ORDER BY of a sort key; the id last, so equal values keep one order across pages. `searching`: the
 * newest-first order as an expression no index gives, so a search reads its matches by their trigram
 * indexes and sorts them, instead of walking every account newest first until a page of matches is found
 * (the planner cannot tell how rare a substring is: 240 ms for a rare one, the scale bench)
 */
function orderOf(sort: ListUsersParams['sort'], order: ListUsersParams['order'], searching = false): SQL[] {
  const dir = order === 'asc' ? asc : desc;
  // never signed in: last when the newest come first, first when the oldest do
  if (sort === 'lastLoginAt')
    return [
      sql`${users.lastLoginAt} ${sql.raw(order === 'asc' ? 'asc nulls first' : 'desc nulls last')}`,
      dir(users.id),
    ];
  const columns =
    sort === 'email'
      ? [users.email]
      : sort === 'name'
        ? [sql`lower(${users.firstName})`, sql`lower(${users.lastName})`]
        : sort === 'status'
          ? [users.status]
          : sort === 'role'
            ? [users.role]
            : [searching ? sql`${users.createdAt} + interval '0 seconds'` : users.createdAt];
  return [...columns.map((c) => dir(c)), dir(users.id)];
}

/**
 * Admin list, newest first unless `sort`/`order` say otherwise, soft-deleted accounts excluded. `search` matches a substring of the email,
 * first name, last name or "first last", ignoring case: a substring of either name is one of "first last",
 * so two conditions say it, each served by its trigram index (docs/architecture.md, "Lists at scale"). The
 * page's ids are found first and only their rows read (a deferred join): a deep page skips index entries,
 * not rows.
 */
export async function listUsers(svc: Services, params: ListUsersParams) {
  const where: SQL[] = [isNull(users.deletedAt)];
  if (params.status) where.push(eq(users.status, params.status));
  if (params.role) where.push(eq(users.role, params.role));
  const term = params.search?.trim();
  if (term) {
    const p = likePattern(term);
    where.push(or(ilike(users.email, p), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, p))!);
  }
  const filter = and(...where);
  const order = orderOf(params.sort, params.order, !!term);
  const pageIds = svc.db
    .select({ id: users.id })
    .from(users)
    .where(filter)
    .orderBy(...order)
    .limit(params.limit)
    .offset(offsetOf(params));
  const [rows, [total]] = await Promise.all([
    svc.db
      .select({
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        status: users.status,
        role: users.role,
        emailVerified: users.emailVerified,
        createdAt: users.createdAt,
        lastLoginAt: users.lastLoginAt,
      })
      .from(users)
      .where(inArray(users.id, pageIds))
      .orderBy(...order),
    !params.status && !params.role && !term
      ? // every live account: the total kept by triggers on users (docs/architecture.md, "Lists at scale")
        svc.db.select({ n: userTotals.live }).from(userTotals)
      : // counted in the list's order: the planner then reads the matches from an index (the partial
        // users_live_created_idx, index-only, for a status or role) where it would scan the table
        svc.db.select({ n: count() }).from(
          svc.db
            .select({ one: sql`1`.as('one') })
            .from(users)
            .where(filter)
            .orderBy(desc(users.createdAt), desc(users.id))
            .as('live'),
        ),
  ]);
  return {
    users: rows.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      lastLoginAt: r.lastLoginAt?.toISOString() ?? null,
    })),
    pagination: paginationOf(params, total?.n ?? 0),
  };
}
