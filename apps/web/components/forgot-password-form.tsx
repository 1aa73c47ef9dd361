'use client';
import { passwordResetRequestInput } from '@plenum/validators';
import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useTRPC } from '../lib/trpc';
import { EmailRequestForm } from './email-request-form';

/** Asks for a reset link. */
export function ForgotPasswordForm() {
  const t = useTranslations('auth.forgot');
  const trpc = useTRPC();
  const request = useMutation(trpc.auth.requestPasswordReset.mutationOptions());
  return (
    <EmailRequestForm
      schema={passwordResetRequestInput}
      mutation={request}
      labels={{ form: t('form'), submit: t('submit'), sending: t('sending') }}
      doneTestId="reset-requested"
    />
  );
}
