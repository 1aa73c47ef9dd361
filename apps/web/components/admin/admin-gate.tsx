'use client';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { toDisplayError } from '../../lib/errors';
import { useMe } from '../../lib/use-auth';
import { ErrorAlert } from '../alert';

/**
 * Admin pages render only for role admin. The API refuses everything else anyway (403 ADMIN_ONLY);
 * this only spares others a page of errors.
 */
export function AdminGate({ children }: { children: ReactNode }) {
  const { signedIn, me } = useMe();
  if (!signedIn)
    return (
      <p>
        <Link href="/sign-in">Sign in</Link> with an admin account to see this page.
      </p>
    );
  if (me.isPending) return <p aria-live="polite">Loading…</p>;
  if (me.isError) return <ErrorAlert error={toDisplayError(me.error)} />;
  if (me.data.user.role !== 'admin')
    return (
      <div role="alert" className="alert alert-error" data-testid="admins-only">
        <p>Admins only: this page is for administrators.</p>
      </div>
    );
  return <>{children}</>;
}
