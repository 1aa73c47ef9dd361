'use client';
import { resendVerificationInput } from '@plenum/validators';
import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useTRPC } from '../lib/trpc';
import { EmailRequestForm } from './email-request-form';

/** Asks for a new verification link. */
export function ResendForm({ defaultEmail }: { defaultEmail?: string }) {
  const t = useTranslations('auth.resend');
  const trpc = useTRPC();
  const resend = useMutation(trpc.registration.resendVerification.mutationOptions());
  return (
    <EmailRequestForm
      schema={resendVerificationInput}
      mutation={resend}
      defaultEmail={defaultEmail}
      labels={{ form: t('form'), submit: t('submit'), sending: t('sending') }}
      doneTestId="resent"
    />
  );
}
