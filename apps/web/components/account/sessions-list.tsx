'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useTRPC } from '../../lib/trpc';
import { describeUserAgent } from '../../lib/user-agent';
import { Alert, AlertDescription } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DateTime } from '../ui/date-time';
import { Pager } from '../ui/pager';
import { QueryState } from '../ui/query-state';

const LIMIT = 20;

/**
 * "Sessions and devices": where the account is signed in, this device marked; sign out one or all others,
 * each after a confirmation that says what happens.
 */
export function SessionsList() {
  const t = useTranslations('account.sessions');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [ended, setEnded] = useState<number | null>(null);
  const [asking, setAsking] = useState<{ id: string; device: string } | 'others' | null>(null);
  const list = useQuery({
    ...trpc.auth.sessions.queryOptions({ page, limit: LIMIT }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.auth.sessions.queryKey() });
  const revoke = useMutation(trpc.auth.revokeSession.mutationOptions({ onSuccess: refresh }));
  const revokeOthers = useMutation(
    trpc.auth.revokeOtherSessions.mutationOptions({
      onSuccess: ({ ended: n }) => {
        setEnded(n);
        setPage(1);
        return refresh();
      },
    }),
  );
  // the web app signs in with a session, so one of them is always this one
  const others = Math.max(0, (list.data?.pagination.total ?? 0) - 1);

  return (
    <section aria-labelledby="sessions-heading" className="grid min-w-0 gap-3">
      <h2 id="sessions-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <p className="m-0 text-muted-foreground">{t('intro')}</p>
      <QueryState query={list}>
        {(data) => (
          <>
            <ul className="m-0 grid list-none gap-2 p-0" data-testid="sessions">
              {data.items.map((s) => {
                const device = describeUserAgent(s.userAgent);
                return (
                  <li
                    key={s.id}
                    className="flex min-w-0 flex-wrap items-center justify-between gap-2 rounded-lg border bg-card p-3"
                    data-testid="session"
                    data-current={s.current}
                  >
                    <div className="grid min-w-0 gap-0.5">
                      <span className="flex flex-wrap items-center gap-2">
                        <strong title={s.userAgent ?? undefined}>{device}</strong>
                        {s.current && (
                          <Badge variant="secondary" data-testid="this-device">
                            {t('thisDevice')}
                          </Badge>
                        )}
                      </span>
                      <span className="text-sm text-muted-foreground">
                        {s.ip ?? t('unknownAddress')} · {t('signedIn')} <DateTime value={s.createdAt} /> ·{' '}
                        {t('lastActive')} <DateTime value={s.lastUsedAt ?? s.createdAt} relativeOnly />
                      </span>
                    </div>
                    {!s.current && (
                      <Button
                        variant="outline"
                        size="sm"
                        aria-label={t('signOutNamed', { device })}
                        onClick={() => {
                          setEnded(null);
                          setAsking({ id: s.id, device });
                        }}
                      >
                        {t('signOut')}
                      </Button>
                    )}
                  </li>
                );
              })}
            </ul>
            <Pager
              label={t('pages')}
              page={page}
              pageCount={data.pagination.totalPages}
              onPageChange={setPage}
            />
          </>
        )}
      </QueryState>
      {ended !== null && (
        <Alert variant="success" role="status" data-testid="sessions-ended">
          <AlertDescription>{t('ended', { count: ended })}</AlertDescription>
        </Alert>
      )}
      {others > 0 && (
        <Button
          variant="outline"
          className="justify-self-start"
          onClick={() => {
            setEnded(null);
            setAsking('others');
          }}
        >
          {t('signOutOthers')}
        </Button>
      )}
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        destructive
        title={asking === 'others' ? t('othersTitle') : t('oneTitle', { device: asking?.device ?? '' })}
        description={asking === 'others' ? t('othersWhat', { count: others }) : t('oneWhat')}
        confirmLabel={t('signOut')}
        onConfirm={() =>
          asking === 'others'
            ? revokeOthers.mutateAsync()
            : asking
              ? revoke.mutateAsync({ id: asking.id })
              : undefined
        }
      />
    </section>
  );
}
