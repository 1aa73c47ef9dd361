'use client';
import { useMutation } from '@tanstack/react-query';
import { CircleCheck } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { toDisplayError } from '../lib/errors';
import { useTRPC } from '../lib/trpc';
import { Alert, AlertDescription } from './ui/alert';
import { Button } from './ui/button';
import { FormError } from './ui/form';

/**
 * The mailed link that lets an OpenID identity sign in to an existing account (docs/accounts.md,
 * "Signing in with OpenID Connect"). Nothing happens on arrival (mail scanners open links): the owner
 * clicks to confirm.
 */
export function ConfirmIdentityLink({ token }: { token: string | null }) {
  const t = useTranslations('auth.oidc.link');
  const trpc = useTRPC();
  const confirm = useMutation(trpc.auth.confirmIdentityLink.mutationOptions());
  if (!token) return <FormError error={t('noToken')} />;
  if (confirm.data)
    return (
      <Alert variant="success" role="status" data-testid="identity-linked">
        <CircleCheck aria-hidden />
        <AlertDescription>
          <p className="m-0">{t('done', { provider: confirm.data.providerName })}</p>
          <p className="m-0">
            <Link href="/sign-in">{t('signIn')}</Link>
          </p>
        </AlertDescription>
      </Alert>
    );
  return (
    <div className="grid gap-4">
      {confirm.isError && <FormError error={toDisplayError(confirm.error)} />}
      <p className="m-0">{t('lead')}</p>
      <Button disabled={confirm.isPending} onClick={() => confirm.mutate({ token })}>
        {confirm.isPending ? t('confirming') : t('confirm')}
      </Button>
    </div>
  );
}
