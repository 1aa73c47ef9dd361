'use client';
import type { AppRouter } from '@plenum/api';
import type { inferRouterOutputs } from '@trpc/server';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { DateTime } from './ui/date-time';

type User = inferRouterOutputs<AppRouter>['auth']['me']['user'];

/** The profile as stored, read-only; dates in the app's one format with their time zone. */
export function ProfileDetails({ user }: { user: User }) {
  const t = useTranslations('account.summary');
  const rows: [string, ReactNode][] = [
    [t('name'), `${user.firstName} ${user.lastName}`],
    [t('email'), user.email],
    [t('organization'), user.organizationName ?? '—'],
    [t('status'), t(`statusValue.${user.status}`)],
    [t('emailVerified'), user.emailVerified ? t('yes') : t('no')],
    [t('role'), t(`roleValue.${user.role}`)],
    [t('memberSince'), <DateTime key="created" value={user.createdAt} />],
    [t('lastSignIn'), user.lastLoginAt ? <DateTime key="login" value={user.lastLoginAt} /> : '—'],
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
