'use client';
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { afterSignIn } from '../lib/after-sign-in';
import { useApiUrl } from '../lib/api-url';
import { useTRPC } from '../lib/trpc';
import { AuthPanel } from './auth-page';
import { Button } from './ui/button';

/**
 * "Continue with <provider>" for each configured OpenID provider (docs/accounts.md, "Signing in with
 * OpenID Connect"); nothing when none is. A plain navigation to the API, which sends the browser on.
 */
export function OidcSignIn({ search }: { search: string }) {
  const t = useTranslations('auth.oidc');
  const trpc = useTRPC();
  const apiUrl = useApiUrl();
  const providers = useQuery(trpc.auth.oidcProviders.queryOptions());
  if (!providers.data?.length) return null;
  const returnTo = encodeURIComponent(afterSignIn(search));
  return (
    <AuthPanel aria-labelledby="sign-in-oidc-heading">
      <h2 id="sign-in-oidc-heading" className="m-0 text-base font-semibold">
        {t('providersHeading')}
      </h2>
      <div className="grid gap-2">
        {providers.data.map((p) => (
          <Button key={p.id} variant="outline" className="w-full" asChild>
            <a href={`${apiUrl}/auth/oidc/${encodeURIComponent(p.id)}/start?returnTo=${returnTo}`}>
              {t('continueWith', { name: p.name })}
            </a>
          </Button>
        ))}
      </div>
    </AuthPanel>
  );
}
