'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useFormatter, useTranslations } from 'next-intl';
import { useState } from 'react';
import { useApiUrl } from '../../lib/api-url';
import { type DisplayError, toDisplayError } from '../../lib/errors';
import { getSessionToken } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { FormError } from '../ui/form';

/**
 * "Linked sign-ins" on the Security tab (docs/accounts.md, "Signing in with OpenID Connect"): the
 * account's identities at OpenID providers with Unlink, and "Link <provider>" for each configured one.
 * Linking asks the API for the provider's URL with this app's Bearer session, in a request that carries
 * cookies so its answer can bind the flow to this browser, then goes there.
 */
export function LinkedIdentities() {
  const t = useTranslations('account.identities');
  const tw = useTranslations('account.wallets');
  const format = useFormatter();
  const trpc = useTRPC();
  const apiUrl = useApiUrl();
  const queryClient = useQueryClient();
  const providers = useQuery(trpc.auth.oidcProviders.queryOptions());
  const identities = useQuery(trpc.auth.identities.queryOptions());
  const unlink = useMutation(trpc.auth.unlinkIdentity.mutationOptions());
  const [error, setError] = useState<DisplayError | string | null>(null);
  const [asking, setAsking] = useState<{ id: string; providerName: string } | null>(null);
  const [linking, setLinking] = useState<string | null>(null);

  if (!providers.data?.length && !identities.data?.length) return null;
  const date = (iso: string) => format.dateTime(new Date(iso), { dateStyle: 'medium' });

  async function startLink(id: string) {
    setError(null);
    setLinking(id);
    try {
      const res = await fetch(`${apiUrl}/auth/oidc/${encodeURIComponent(id)}/link`, {
        method: 'POST',
        credentials: 'include',
        headers: { authorization: `Bearer ${getSessionToken() ?? ''}`, 'content-type': 'application/json' },
        body: JSON.stringify({ returnTo: '/account?tab=security' }),
      });
      const body = await res.json();
      if (!res.ok) throw new Error(body?.message ?? res.statusText);
      window.location.assign(body.url);
    } catch (err) {
      setLinking(null);
      setError(toDisplayError(err));
    }
  }

  async function confirmUnlink() {
    if (!asking) return;
    try {
      await unlink.mutateAsync({ id: asking.id });
    } catch (err) {
      const shown = toDisplayError(err);
      setError(shown.reason === 'LAST_SIGN_IN_METHOD' ? t('lastMethod') : shown);
    }
    await queryClient.invalidateQueries({ queryKey: trpc.auth.identities.queryKey() });
  }

  return (
    <section aria-labelledby="identities-heading" className="grid gap-3">
      <h2 id="identities-heading" className="m-0 text-lg font-semibold">
        {t('heading')}
      </h2>
      <p className="m-0 text-sm text-muted-foreground">{t('lead')}</p>
      {error && (
        <FormError error={error}>
          {typeof error === 'string' && (
            <p className="m-0">
              <Link href="/forgot-password">{tw('setPassword')}</Link>
            </p>
          )}
        </FormError>
      )}
      {identities.data?.length ? (
        <ul className="m-0 grid list-none gap-2 p-0" data-testid="linked-identities">
          {identities.data.map((i) => (
            <li
              key={i.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3"
            >
              <span>
                <strong>{i.providerName}</strong>
                {i.email && <> · {i.email}</>}
                <span className="block text-xs text-muted-foreground">
                  {t('linkedOn', { date: date(i.createdAt) })}
                  {i.lastUsedAt && <> · {t('lastUsed', { date: date(i.lastUsedAt) })}</>}
                </span>
              </span>
              <Button
                variant="outline"
                size="sm"
                aria-label={t('unlinkNamed', { provider: i.providerName, email: i.email ?? '' })}
                onClick={() => {
                  setError(null);
                  setAsking({ id: i.id, providerName: i.providerName });
                }}
              >
                {t('unlink')}
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="m-0 text-sm">{t('none')}</p>
      )}
      <div className="flex flex-wrap gap-2">
        {providers.data?.map((p) => (
          <Button key={p.id} variant="outline" disabled={linking !== null} onClick={() => startLink(p.id)}>
            {linking === p.id ? t('linking', { provider: p.name }) : t('link', { provider: p.name })}
          </Button>
        ))}
      </div>
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => !open && setAsking(null)}
        destructive
        title={t('unlinkTitle', { provider: asking?.providerName ?? '' })}
        description={<p className="m-0">{t('unlinkBody', { provider: asking?.providerName ?? '' })}</p>}
        confirmLabel={t('unlink')}
        onConfirm={confirmUnlink}
      />
    </section>
  );
}
