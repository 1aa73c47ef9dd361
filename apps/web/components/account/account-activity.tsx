'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useTRPC } from '../../lib/trpc';
import { describeUserAgent } from '../../lib/user-agent';
import { DateTime } from '../ui/date-time';
import { EmptyState } from '../ui/empty-state';
import { Pager } from '../ui/pager';
import { QueryState } from '../ui/query-state';

const LIMIT = 25;

/** the sign-in methods an event may name, each a word in `account.activity.methods` */
const METHODS = new Set(['password', 'siwe', 'mfa', 'passkey', 'oidc']);

type Event = { kind: string; detail: Record<string, unknown> };

/** the event in words: its kind's sentence, with the method or factor it names */
function useEventText() {
  const t = useTranslations('account.activity');
  return (e: Event) => {
    const method =
      typeof e.detail.method === 'string' && METHODS.has(e.detail.method) ? e.detail.method : null;
    const first =
      typeof e.detail.firstFactor === 'string' && METHODS.has(e.detail.firstFactor)
        ? e.detail.firstFactor
        : null;
    const how = method
      ? method === 'mfa' && first
        ? t('methods.mfaAfter', { first: t(`methods.${first}`) })
        : t(`methods.${method}`)
      : '';
    switch (e.kind) {
      case 'sign_in':
        return t('kinds.sign_in', { how });
      case 'sign_in_failed':
        return t('kinds.sign_in_failed', { how });
      case 'sessions_revoked':
        return e.detail.by === 'admin'
          ? t('kinds.sessions_revoked_admin', { count: Number(e.detail.count ?? 0) })
          : t('kinds.sessions_revoked', { count: Number(e.detail.count ?? 0) });
      case 'email_changed':
        return e.detail.undone ? t('kinds.email_change_undone') : t('kinds.email_changed');
      case 'factor_added':
      case 'factor_removed':
        return e.detail.kind === 'passkey'
          ? t(e.kind === 'factor_added' ? 'kinds.passkey_added' : 'kinds.passkey_removed', {
              name: String(e.detail.name ?? ''),
            })
          : t(`kinds.${e.kind}`);
      case 'identity_linked':
      case 'identity_unlinked':
        return t(`kinds.${e.kind}`, { provider: String(e.detail.provider ?? '') });
      case 'token_created':
      case 'token_revoked':
        return t(`kinds.${e.kind}`, { name: String(e.detail.name ?? '') });
      case 'password_changed':
      case 'password_reset':
      case 'recovery_codes_renewed':
      case 'suspended':
      case 'reactivated':
        return t(`kinds.${e.kind}`);
      default:
        return t('kinds.other', { kind: e.kind });
    }
  };
}

/**
 * "Activity" on the account page (docs/accounts.md, "Account activity"): sign-ins, failed attempts and
 * changes to the account, newest first, each with when, the device and the address it came from.
 */
export function AccountActivity() {
  const t = useTranslations('account.activity');
  const trpc = useTRPC();
  const text = useEventText();
  const [page, setPage] = useState(1);
  const list = useQuery({
    ...trpc.auth.activity.queryOptions({ page, limit: LIMIT }),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="activity-heading" className="grid min-w-0 gap-3">
      <h2 id="activity-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <p className="m-0 text-muted-foreground">{t('intro')}</p>
      <QueryState query={list}>
        {(data) =>
          data.items.length === 0 ? (
            <EmptyState icon={History} title={t('empty')} testId="activity" />
          ) : (
            <>
              <ol className="m-0 grid list-none gap-2 p-0" data-testid="activity" aria-busy={list.isFetching}>
                {data.items.map((e) => (
                  <li
                    key={e.id}
                    className="grid min-w-0 gap-0.5 rounded-lg border bg-card p-3"
                    data-testid="activity-event"
                    data-kind={e.kind}
                  >
                    <span
                      className={e.kind === 'sign_in_failed' ? 'font-medium text-destructive' : 'font-medium'}
                    >
                      {text(e)}
                    </span>
                    <span className="text-sm text-muted-foreground">
                      <DateTime value={e.createdAt} />
                      {e.userAgent && (
                        <>
                          {' · '}
                          <span title={e.userAgent}>{describeUserAgent(e.userAgent)}</span>
                        </>
                      )}
                      {e.ip && ` · ${e.ip}`}
                    </span>
                  </li>
                ))}
              </ol>
              <Pager
                label={t('pages')}
                page={data.pagination.page}
                pageCount={data.pagination.totalPages}
                onPageChange={setPage}
              />
            </>
          )
        }
      </QueryState>
    </section>
  );
}
