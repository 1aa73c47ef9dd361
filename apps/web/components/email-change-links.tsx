'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CircleCheck } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useEffect, useRef } from 'react';
import { toDisplayError } from '../lib/errors';
import { useTRPC } from '../lib/trpc';
import { AuthPanel } from './auth-page';
import { Alert, AlertDescription } from './ui/alert';
import { Button } from './ui/button';
import { FormError } from './ui/form';
import { Loading } from './ui/query-state';

/**
 * The landing pages of the two links of an email change (docs/accounts.md, "Changing the email
 * address"): the one to the new address confirms on arrival, as the verification link does; the one to
 * the old address explains what undoing does and waits for a click, since it signs the account out.
 */
function NoToken() {
  const t = useTranslations('auth.emailChange');
  return (
    <FormError error={t('noToken')}>
      <p>{t('openExactly')}</p>
    </FormError>
  );
}

function Done({ testId, children }: { testId: string; children: React.ReactNode }) {
  return (
    <Alert variant="success" role="status" data-testid={testId}>
      <CircleCheck aria-hidden />
      <AlertDescription>{children}</AlertDescription>
    </Alert>
  );
}

export function ConfirmEmailChange({ token }: { token: string | null }) {
  const t = useTranslations('auth.emailChange');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useMutation(
    trpc.auth.confirmEmailChange.mutationOptions({ onSuccess: () => void queryClient.invalidateQueries() }),
  );
  const sent = useRef(false);

  useEffect(() => {
    // once per page view, even when React runs effects twice in development
    if (!token || sent.current) return;
    sent.current = true;
    confirm.mutate({ token });
  }, [token, confirm]);

  if (!token) return <NoToken />;
  if (confirm.isError)
    return (
      <FormError error={toDisplayError(confirm.error)}>
        <p>
          {t('askAgain')} <Link href="/account?tab=security">{t('yourAccount')}</Link>.
        </p>
      </FormError>
    );
  if (!confirm.data) return <Loading label={t('confirming')} lines={2} />;
  return (
    <Done testId="email-confirmed">
      <p>{t('confirmed', { email: confirm.data.email })}</p>
      <p>
        <Link href="/sign-in">{t('signIn')}</Link> {t('or')} <Link href="/account">{t('yourAccount')}</Link>.
      </p>
    </Done>
  );
}

export function UndoEmailChange({ token }: { token: string | null }) {
  const t = useTranslations('auth.emailChange');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const undo = useMutation(
    trpc.auth.undoEmailChange.mutationOptions({
      // every session of the account ended: whatever this browser held is re-checked
      onSuccess: () => void queryClient.resetQueries(),
    }),
  );

  if (!token) return <NoToken />;
  if (undo.data)
    return (
      <Done testId="email-change-undone">
        <p>{t('undone')}</p>
        <p>
          <Link href="/sign-in">{t('signIn')}</Link>
        </p>
      </Done>
    );
  return (
    <AuthPanel>
      <div className="grid gap-4">
        <p className="m-0">{t('undoLead')}</p>
        <FormError error={undo.isError ? toDisplayError(undo.error) : null} />
        <Button onClick={() => undo.mutate({ token })} disabled={undo.isPending} className="w-full">
          {undo.isPending ? t('undoing') : t('undo')}
        </Button>
      </div>
    </AuthPanel>
  );
}
