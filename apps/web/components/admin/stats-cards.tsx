'use client';
import { useQuery } from '@tanstack/react-query';
import { dateTime } from '../../lib/files/format';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';

/** The user statistics (deleted users excluded; docs/users.md, "Administration"). */
export function StatsCards() {
  const trpc = useTRPC();
  const stats = useQuery(trpc.adminUsers.stats.queryOptions());
  if (stats.isPending) return <p aria-live="polite">Loading statistics…</p>;
  if (stats.isError) return <ErrorAlert error={readable(stats.error)} />;
  const s = stats.data;
  const cards: [string, string, 'small'?][] = [
    ['Users', String(s.totalUsers)],
    ['Active', String(s.activeUsers)],
    ['Pending verification', String(s.pendingVerification)],
    ['Suspended', String(s.suspendedUsers)],
    ['Registered this month', String(s.registrationsThisMonth)],
    ['Last sign-in', dateTime(s.lastLoginActivity), 'small'],
  ];
  return (
    <dl className="stat-cards" data-testid="stats">
      {cards.map(([label, value, size]) => (
        <div key={label} className="card">
          <dt className="muted">{label}</dt>
          <dd className={size === 'small' ? 'stat-small' : undefined}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
