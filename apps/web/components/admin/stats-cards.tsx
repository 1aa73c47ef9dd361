'use client';
import { useQuery } from '@tanstack/react-query';
import { useFormatter, useTranslations } from 'next-intl';
import { useTRPC } from '../../lib/trpc';
import { DateTime } from '../ui/date-time';
import { QueryState } from '../ui/query-state';

/** The user statistics (deleted users excluded; docs/users.md, "Administration"). */
export function StatsCards() {
  const t = useTranslations('admin.stats');
  const format = useFormatter();
  const trpc = useTRPC();
  const stats = useQuery(trpc.adminUsers.stats.queryOptions());
  return (
    <QueryState query={stats}>
      {(s) => (
        <dl className="m-0 grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="stats">
          {(
            [
              ['users', s.totalUsers],
              ['active', s.activeUsers],
              ['pending', s.pendingVerification],
              ['suspended', s.suspendedUsers],
              ['thisMonth', s.registrationsThisMonth],
            ] as const
          ).map(([key, value]) => (
            <div key={key} className="grid min-w-0 gap-1 rounded-xl border bg-card p-4">
              <dt className="text-sm text-muted-foreground">{t(key)}</dt>
              <dd className="m-0 text-2xl font-semibold tabular-nums">{format.number(value)}</dd>
            </div>
          ))}
          <div className="col-span-2 grid min-w-0 gap-1 rounded-xl border bg-card p-4 sm:col-span-1">
            <dt className="text-sm text-muted-foreground">{t('lastSignIn')}</dt>
            <dd className="m-0 text-sm">
              {s.lastLoginActivity ? <DateTime value={s.lastLoginActivity} relative /> : t('never')}
            </dd>
          </div>
        </dl>
      )}
    </QueryState>
  );
}
