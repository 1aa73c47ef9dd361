import { users } from '@plenum/db';
import { and, gte, isNull, lt, sql } from 'drizzle-orm';
import type { Services } from '../../services';

/** First instant of the clock's current calendar month in UTC. */
export function startOfUtcMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/**
 * The user statistics in one scan (docs/users.md, "Administration"); soft-deleted accounts are not counted.
 */
export async function userStats(svc: Services) {
  const monthStart = startOfUtcMonth(svc.clock.now());
  const [row] = await svc.db
    .select({
      totalUsers: sql<number>`count(*)::int`,
      activeUsers: sql<number>`(count(*) filter (where ${users.status} = 'active'))::int`,
      suspendedUsers: sql<number>`(count(*) filter (where ${users.status} = 'suspended'))::int`,
      pendingVerification: sql<number>`(count(*) filter (where ${users.status} = 'pending_verification'))::int`,
      registrationsThisMonth: sql<number>`(count(*) filter (where ${users.createdAt} >= ${monthStart.toISOString()}::timestamptz))::int`,
      lastLoginActivity: sql<string | null>`max(${users.lastLoginAt})`,
    })
    .from(users)
    .where(isNull(users.deletedAt));
  const last = row?.lastLoginActivity;
  return {
    totalUsers: Number(row?.totalUsers ?? 0),
    activeUsers: Number(row?.activeUsers ?? 0),
    suspendedUsers: Number(row?.suspendedUsers ?? 0),
    pendingVerification: Number(row?.pendingVerification ?? 0),
    registrationsThisMonth: Number(row?.registrationsThisMonth ?? 0),
    lastLoginActivity: last ? new Date(last).toISOString() : null,
  };
}

const DAY_MS = 86_400_000;

/**
 * New accounts per UTC day for the `days` days ending today (the clock's), oldest first, days without
 * any included as 0; soft-deleted accounts are not counted (as in the statistics). One grouped query.
 */
export async function registrationsByDay(svc: Services, params: { days: number }) {
  const { days } = params;
  const now = svc.clock.now();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - (days - 1) * DAY_MS);
  const until = new Date(today + DAY_MS);
  const day = sql<string>`to_char(${users.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await svc.db
    .select({ day, count: sql<number>`count(*)::int` })
    .from(users)
    .where(and(isNull(users.deletedAt), gte(users.createdAt, from), lt(users.createdAt, until)))
    .groupBy(day);
  const counted = new Map(rows.map((r) => [r.day, Number(r.count)]));
  const series = Array.from({ length: days }, (_, i) => {
    const d = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    return { day: d, count: counted.get(d) ?? 0 };
  });
  return { days: series, total: series.reduce((n, d) => n + d.count, 0) };
}
