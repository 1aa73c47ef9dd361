'use client';
import { resendVerificationInput } from '@plenum/validators';
import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { useTRPC } from '../lib/trpc';
import { AuthPanel } from './auth-page';
import { Alert, AlertDescription } from './ui/alert';
import { Button } from './ui/button';
import { Form, FormError, setServerErrors, TextField, useZodForm } from './ui/form';

/** The API answers the same for any address (no enumeration), so the page does too. */
export function ResendForm({ defaultEmail }: { defaultEmail?: string }) {
  const t = useTranslations('auth');
  const trpc = useTRPC();
  const resend = useMutation(trpc.registration.resendVerification.mutationOptions());
  const [error, setError] = useState<DisplayError | null>(null);
  const form = useZodForm(resendVerificationInput, { defaultValues: { email: defaultEmail ?? '' } });

  const onSubmit = form.handleSubmit(
    (values) => {
      setError(null);
      resend.mutate(values, {
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
    <AuthPanel>
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={t('resend.form')}>
          {resend.data && (
            <Alert variant="success" role="status" data-testid="resent">
              <AlertDescription>{resend.data.message}</AlertDescription>
            </Alert>
          )}
          <FormError error={error} />
          <TextField
            form={form}
            name="email"
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            required
          />
          <Button type="submit" disabled={resend.isPending} className="w-full">
            {resend.isPending ? t('resend.sending') : t('resend.submit')}
          </Button>
        </form>
      </Form>
    </AuthPanel>
  );
}
