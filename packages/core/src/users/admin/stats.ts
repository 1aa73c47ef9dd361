import { users } from '@plenum/db';
import { isNull, sql } from 'drizzle-orm';
import type { Services } from '../../services';

/** First instant of the clock's current calendar month in UTC. */
export function startOfUtcMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** The seed's statistics in one scan; soft-deleted accounts are not counted. */
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
