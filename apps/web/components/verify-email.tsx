'use client';
import { useMutation } from '@tanstack/react-query';
import { CircleCheck } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useEffect, useRef } from 'react';
import { toDisplayError } from '../lib/errors';
import { useTRPC } from '../lib/trpc';
import { Alert, AlertDescription } from './ui/alert';
import { FormError } from './ui/form';
import { Loading } from './ui/query-state';

/** Landing page of the mailed link: verifies once on arrival and says what happened. */
export function VerifyEmail({ token }: { token: string | null }) {
  const t = useTranslations('auth.verify');
  const trpc = useTRPC();
  const verify = useMutation(trpc.registration.verifyEmail.mutationOptions());
  const sent = useRef(false);

  useEffect(() => {
    // once per page view, even when React runs effects twice in development
    if (!token || sent.current) return;
    sent.current = true;
    verify.mutate({ token });
  }, [token, verify]);

  if (!token)
    return (
      <FormError error={t('noToken')}>
        <p>
          {t('openExactly')} <Link href="/resend-verification">{t('askNew')}</Link>.
        </p>
      </FormError>
    );
  if (verify.isError)
    return (
      <FormError error={toDisplayError(verify.error)}>
        <p>
          {t('failedHint')} <Link href="/resend-verification">{t('sendNew')}</Link>.
        </p>
      </FormError>
    );
  if (!verify.data) return <Loading label={t('verifying')} lines={2} />;
  const already = verify.data.message === 'already verified';
  const values = {
    email: verify.data.email,
    status: t.has(`status.${verify.data.status}`)
      ? t(`status.${verify.data.status}` as 'status.active')
      : verify.data.status.replace('_', ' '),
  };
  return (
    <Alert variant="success" role="status" data-testid="verified">
      <CircleCheck aria-hidden />
      <AlertDescription>
        <p>{already ? t('alreadyVerified', values) : t('verified', values)}</p>
        <p>
          <Link href="/sign-in">{t('signIn')}</Link> {t('or')} <Link href="/account">{t('yourAccount')}</Link>
          .
        </p>
      </AlertDescription>
    </Alert>
  );
}
