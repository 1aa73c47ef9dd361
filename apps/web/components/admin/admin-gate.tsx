'use client';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { useMe } from '../../lib/use-auth';
import { Alert, AlertDescription } from '../ui/alert';
import { QueryState } from '../ui/query-state';

/**
 * Admin pages render only for role admin. The API refuses everything else anyway (403 ADMIN_ONLY);
 * this only spares others a page of errors.
 */
export function AdminGate({ children }: { children: ReactNode }) {
  const t = useTranslations('admin.gate');
  const { signedIn, me } = useMe();
  if (!signedIn)
    return <p>{t.rich('signIn', { link: (chunks) => <Link href="/sign-in">{chunks}</Link> })}</p>;
  return (
    <QueryState query={me}>
      {(data) =>
        data.user.role !== 'admin' ? (
          <Alert variant="destructive" role="alert" data-testid="admins-only">
            <AlertDescription>{t('adminsOnly')}</AlertDescription>
          </Alert>
        ) : (
          children
        )
      }
    </QueryState>
  );
}
