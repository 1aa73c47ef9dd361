'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type DisplayError, toDisplayError } from '../../lib/errors';
import { dateTime } from '../../lib/files/format';
import { useTRPC } from '../../lib/trpc';
import { describeUserAgent } from '../../lib/user-agent';
import { Pager } from '../admin/pager';
import { ErrorAlert, Notice } from '../alert';

const LIMIT = 20;

/** "Sessions and devices": where the account is signed in, this device marked; sign out one or all others. */
export function SessionsList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [error, setError] = useState<DisplayError | null>(null);
  const [ended, setEnded] = useState<string | null>(null);
  const list = useQuery(trpc.auth.sessions.queryOptions({ page, limit: LIMIT }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.auth.sessions.queryKey() });
  const revoke = useMutation(
    trpc.auth.revokeSession.mutationOptions({
      onSuccess: refresh,
      onError: (e) => setError(toDisplayError(e)),
    }),
  );
  const revokeOthers = useMutation(
    trpc.auth.revokeOtherSessions.mutationOptions({
      onSuccess: ({ ended: n }) => {
        setEnded(`Signed out of ${n} other ${n === 1 ? 'session' : 'sessions'}.`);
        setPage(1);
        return refresh();
      },
      onError: (e) => setError(toDisplayError(e)),
    }),
  );
  const items = list.data?.items ?? [];
  // the web app signs in with a session, so one of them is always this one
  const others = Math.max(0, (list.data?.pagination.total ?? 0) - 1);

  return (
    <section aria-labelledby="sessions-heading" className="stack">
      <h2 id="sessions-heading">Sessions and devices</h2>
      <p className="muted">Where your account is signed in. Sign out anything you do not recognise.</p>
      {list.isError && <ErrorAlert error={toDisplayError(list.error)} />}
      {list.isPending && <p aria-live="polite">Loading your sessions…</p>}
      {items.length > 0 && (
        <ul className="sessions" data-testid="sessions">
          {items.map((s) => {
            const device = describeUserAgent(s.userAgent);
            return (
              <li key={s.id} className="session-row" data-testid="session" data-current={s.current}>
                <div>
                  <strong title={s.userAgent ?? undefined}>{device}</strong>
                  {s.current && (
                    <span className="badge" data-testid="this-device">
                      this device
                    </span>
                  )}
                  <div className="muted">
                    {s.ip ?? 'unknown address'} · signed in {dateTime(s.createdAt)} · last active{' '}
                    {dateTime(s.lastUsedAt ?? s.createdAt)}
                  </div>
                </div>
                {!s.current && (
                  <button
                    type="button"
                    className="secondary"
                    disabled={revoke.isPending}
                    aria-label={`Sign out ${device}, signed in ${dateTime(s.createdAt)}`}
                    onClick={() => {
                      setError(null);
                      setEnded(null);
                      revoke.mutate({ id: s.id });
                    }}
                  >
                    Sign out
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {list.data && list.data.pagination.totalPages > 1 && (
        <Pager
          label="Sessions pages"
          page={page}
          totalPages={list.data.pagination.totalPages}
          total={list.data.pagination.total}
          onPage={setPage}
        />
      )}
      {ended && <Notice testId="sessions-ended">{ended}</Notice>}
      <ErrorAlert error={error} />
      {others > 0 && (
        <button
          type="button"
          className="secondary"
          disabled={revokeOthers.isPending}
          onClick={() => {
            setError(null);
            setEnded(null);
            revokeOthers.mutate();
          }}
        >
          {revokeOthers.isPending ? 'Signing out…' : 'Sign out of all other sessions'}
        </button>
      )}
    </section>
  );
}
