'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useTRPC } from '../../lib/trpc';
import { describeUserAgent } from '../../lib/user-agent';
import { Address } from '../ui/address';
import { Alert, AlertDescription } from '../ui/alert';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DateTime } from '../ui/date-time';
import { QueryState } from '../ui/query-state';
import { UserStorage } from './user-storage';

/**
 * What stands behind one account, for an admin (docs/users.md, "Administration"): wallets, linked
 * identities, second factors, live sessions, owned DAOs and storage (with its quota), with "Sign out everywhere" and "Send password
 * reset", each after a confirmation that says what happens.
 */
export function UserDetail({ userId, email }: { userId: string; email: string }) {
  const t = useTranslations('admin.users.detail');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const detail = useQuery(trpc.adminUsers.get.queryOptions({ id: userId }));
  const [asking, setAsking] = useState<'sessions' | 'reset' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.adminUsers.pathKey() });
  const revoke = useMutation(
    trpc.adminUsers.revokeSessions.mutationOptions({
      onSuccess: ({ ended }) => {
        setDone(t('sessionsEnded', { count: ended }));
        return refresh();
      },
    }),
  );
  const reset = useMutation(
    trpc.adminUsers.sendPasswordReset.mutationOptions({
      onSuccess: () => {
        setDone(t('resetSent', { email }));
        return refresh();
      },
    }),
  );
  return (
    <QueryState query={detail}>
      {(u) => (
        <div className="grid gap-4" data-testid="user-detail">
          <Section title={t('wallets')} empty={t('noWallets')} testId="user-wallets">
            {u.wallets.map((w) => (
              <li key={w.address} className="flex flex-wrap items-baseline gap-x-2">
                <Address address={w.address} />
                <span className="text-muted-foreground">
                  {w.isPrimary && `${t('primary')} · `}
                  {t('linked')} <DateTime value={w.linkedAt} />
                </span>
              </li>
            ))}
          </Section>
          <Section title={t('identities')} empty={t('noIdentities')} testId="user-identities">
            {u.identities.map((i) => (
              <li key={i.id}>
                {i.providerName}
                {i.email && ` · ${i.email}`}
              </li>
            ))}
          </Section>
          <Section title={t('factors')} empty={t('noFactors')} testId="user-factors">
            {u.factors.map((f) => (
              <li key={f.kind}>
                {f.kind === 'totp' || f.kind === 'passkey' ? t(`factor.${f.kind}`) : f.kind}
                {f.count > 1 && ` × ${f.count}`}
              </li>
            ))}
          </Section>
          <Section title={t('sessions')} empty={t('noSessions')} testId="user-sessions">
            {u.sessions.map((s) => (
              <li key={s.id}>
                <span title={s.userAgent ?? undefined}>{describeUserAgent(s.userAgent)}</span>
                <span className="text-muted-foreground">
                  {' · '}
                  {s.ip ?? t('unknownAddress')} · {t('signedIn')} <DateTime value={s.createdAt} />
                </span>
              </li>
            ))}
          </Section>
          <Section title={t('ownedDaos')} empty={t('noDaos')} testId="user-daos">
            {u.ownedDaos.map((d) => (
              <li key={d.id}>{d.name}</li>
            ))}
          </Section>
          <UserStorage userId={userId} usage={u.storage} />
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              onClick={() => {
                setDone(null);
                setAsking('sessions');
              }}
            >
              {t('signOutEverywhere')}
            </Button>
            <Button
              variant="outline"
              disabled={u.status === 'suspended'}
              onClick={() => {
                setDone(null);
                setAsking('reset');
              }}
            >
              {t('sendReset')}
            </Button>
          </div>
          {done && (
            <Alert variant="success" role="status" data-testid="user-detail-done">
              <AlertDescription>{done}</AlertDescription>
            </Alert>
          )}
          <ConfirmDialog
            open={asking !== null}
            onOpenChange={(open) => {
              if (!open) setAsking(null);
            }}
            destructive={asking === 'sessions'}
            title={asking === 'reset' ? t('resetTitle', { email }) : t('sessionsTitle', { email })}
            description={
              asking === 'reset' ? t('resetWhat') : t('sessionsWhat', { count: u.sessions.length })
            }
            confirmLabel={asking === 'reset' ? t('sendReset') : t('signOutEverywhere')}
            onConfirm={() =>
              asking === 'reset' ? reset.mutateAsync({ id: userId }) : revoke.mutateAsync({ id: userId })
            }
          />
        </div>
      )}
    </QueryState>
  );
}

function Section({
  title,
  empty,
  testId,
  children,
}: {
  title: string;
  empty: string;
  testId: string;
  children: React.ReactNode[];
}) {
  return (
    <section className="grid gap-1" data-testid={testId}>
      <h3 className="m-0 text-base font-semibold">{title}</h3>
      {children.length === 0 ? (
        <p className="m-0 text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ul className="m-0 grid list-none gap-1 p-0 text-sm">{children}</ul>
      )}
    </section>
  );
}
