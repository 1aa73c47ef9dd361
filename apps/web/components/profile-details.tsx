import type { AppRouter } from '@plenum/api';
import type { inferRouterOutputs } from '@trpc/server';

type User = inferRouterOutputs<AppRouter>['auth']['me']['user'];

const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** The profile as stored, read-only. */
export function ProfileDetails({ user }: { user: User }) {
  const rows: [string, string][] = [
    ['Name', `${user.firstName} ${user.lastName}`],
    ['Email', user.email],
    ['Organization', user.organizationName ?? '—'],
    ['Status', user.status.replace('_', ' ')],
    ['Email verified', user.emailVerified ? 'yes' : 'no'],
    ['Role', user.role],
    ['Member since', date(user.createdAt)],
    ['Last sign-in', date(user.lastLoginAt)],
  ];
  return (
    <dl className="details" data-testid="profile">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
