'use client';
import { useQuery } from '@tanstack/react-query';
import { XIcon } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { useTRPC } from '../../lib/trpc';
import { Button } from '../ui/button';
import { DateTime } from '../ui/date-time';
import { DialogDescription, DialogTitle } from '../ui/dialog';
import { QueryState } from '../ui/query-state';
import { AuditItem } from './audit-log';
import { UserActions } from './user-actions';
import { UserDetail } from './user-detail';
import type { UserRow } from './user-row';
import { UserStatusBadge } from './user-status';

/**
 * A side panel (a Radix dialog sliding in from the right; the full width on a phone) with one user's
 * details, suspend / reactivate, what stands behind the account (user-detail.tsx) and the audit entries
 * about them.
 */
export function UserPanel({
  user,
  self,
  onOpenChange,
  onStatus,
}: {
  user: UserRow | null;
  self: boolean;
  onStatus: (status: UserRow['status']) => void;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('admin.users');
  return (
    <DialogPrimitive.Root open={user !== null} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-in data-[state=open]:fade-in-0" />
        <DialogPrimitive.Content
          className="fixed inset-y-0 right-0 z-50 grid w-full max-w-md content-start gap-5 overflow-y-auto border-l bg-popover p-5 text-popover-foreground shadow-lg outline-none data-[state=open]:animate-in data-[state=open]:slide-in-from-right"
          data-testid="user-panel"
        >
          {user && (
            <>
              <div className="flex items-start justify-between gap-3">
                <div className="grid min-w-0 gap-1">
                  <DialogTitle className="break-words">
                    {user.firstName} {user.lastName}
                  </DialogTitle>
                  <DialogDescription className="break-all">{user.email}</DialogDescription>
                </div>
                <DialogPrimitive.Close asChild>
                  <Button variant="ghost" size="icon-sm" aria-label={t('panel.close')}>
                    <XIcon aria-hidden />
                  </Button>
                </DialogPrimitive.Close>
              </div>
              <dl className="m-0 grid grid-cols-[minmax(7rem,auto)_1fr] gap-x-3 gap-y-2 text-sm">
                <dt className="text-muted-foreground">{t('columns.status')}</dt>
                <dd className="m-0">
                  <UserStatusBadge status={user.status} />
                </dd>
                <dt className="text-muted-foreground">{t('columns.role')}</dt>
                <dd className="m-0">{t(`role.${user.role}`)}</dd>
                <dt className="text-muted-foreground">{t('panel.emailVerified')}</dt>
                <dd className="m-0">{user.emailVerified ? t('panel.yes') : t('panel.no')}</dd>
                <dt className="text-muted-foreground">{t('columns.joined')}</dt>
                <dd className="m-0">
                  <DateTime value={user.createdAt} />
                </dd>
                <dt className="text-muted-foreground">{t('columns.lastSignIn')}</dt>
                <dd className="m-0">
                  {user.lastLoginAt ? <DateTime value={user.lastLoginAt} relative /> : t('never')}
                </dd>
              </dl>
              <p className="m-0 text-sm">
                <Link href={`/users/${user.id}`}>{t('panel.profile')}</Link>
              </p>
              <UserActions user={user} self={self} onStatus={onStatus} />
              <UserDetail userId={user.id} email={user.email} />
              <UserAudit userId={user.id} />
            </>
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

function UserAudit({ userId }: { userId: string }) {
  const t = useTranslations('admin.users.panel');
  const trpc = useTRPC();
  const log = useQuery(trpc.adminUsers.auditLog.queryOptions({ targetId: userId, limit: 20 }));
  return (
    <section aria-labelledby="user-audit-heading" className="grid gap-2">
      <h3 id="user-audit-heading" className="m-0 text-base font-semibold">
        {t('audit')}
      </h3>
      <QueryState query={log}>
        {(data) =>
          data.items.length === 0 ? (
            <p className="m-0 text-sm text-muted-foreground" data-testid="user-audit">
              {t('noAudit')}
            </p>
          ) : (
            <ol className="m-0 grid list-none p-0 text-sm" data-testid="user-audit">
              {data.items.map((e) => (
                <AuditItem key={e.id} entry={e} />
              ))}
            </ol>
          )
        }
      </QueryState>
    </section>
  );
}
