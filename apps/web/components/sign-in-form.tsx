'use client';
import { loginInput } from '@plenum/validators';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { useTRPC } from '../lib/trpc';
import { useStartSession } from '../lib/use-auth';
import { AuthPanel } from './auth-page';
import type { MfaChallenge } from './mfa-step';
import { Button } from './ui/button';
import { Form, FormError, setServerErrors, TextField, useZodForm } from './ui/form';

/**
 * Email + password sign-in; calls onSignedIn once the session is stored, or onChallenge when the account
 * asks for its second factor first.
 */
export function SignInForm({
  onSignedIn,
  onChallenge,
}: {
  onSignedIn: () => void;
  onChallenge: (challenge: MfaChallenge) => void;
}) {
  const t = useTranslations('auth');
  const trpc = useTRPC();
  const startSession = useStartSession();
  const [error, setError] = useState<DisplayError | null>(null);
  const login = useMutation(trpc.auth.login.mutationOptions());
  const form = useZodForm(loginInput, { defaultValues: { email: '', password: '' } });

  const onSubmit = form.handleSubmit(
    (values) => {
      setError(null);
      login.mutate(values, {
        onSuccess: (answer) => {
          if ('mfaRequired' in answer) return onChallenge(answer);
          startSession(answer);
          onSignedIn();
        },
        onError: (err) => {
          const shown = toDisplayError(err);
          setServerErrors(form, shown);
          setError(shown);
        },
      });
    },
    () => setError({ message: t('fixFields'), fields: {} }),
  );

  return (
    <AuthPanel aria-labelledby="sign-in-email-heading">
      <h2 id="sign-in-email-heading" className="m-0 text-base font-semibold">
        {t('signIn.passwordHeading')}
      </h2>
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <FormError error={error} />
          <TextField
            form={form}
            name="email"
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            required
          />
          <TextField
            form={form}
            name="password"
            label={t('fields.password')}
            type="password"
            autoComplete="current-password"
            required
          />
          <Button type="submit" disabled={login.isPending} className="w-full">
            {login.isPending ? t('signIn.submitting') : t('signIn.submit')}
          </Button>
          <Link href="/forgot-password" className="text-sm">
            {t('signIn.forgot')}
          </Link>
        </form>
      </Form>
    </AuthPanel>
  );
}
