'use client';
import { passwordResetRequestInput } from '@plenum/validators';
import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { useTRPC } from '../lib/trpc';
import { AuthPanel } from './auth-page';
import { Alert, AlertDescription } from './ui/alert';
import { Button } from './ui/button';
import { Form, FormError, setServerErrors, TextField, useZodForm } from './ui/form';

/** Asks for a reset link. The API answers the same for any address (no enumeration), so the page does too. */
export function ForgotPasswordForm() {
  const t = useTranslations('auth');
  const trpc = useTRPC();
  const request = useMutation(trpc.auth.requestPasswordReset.mutationOptions());
  const [error, setError] = useState<DisplayError | null>(null);
  const form = useZodForm(passwordResetRequestInput, { defaultValues: { email: '' } });

  const onSubmit = form.handleSubmit(
    (values) => {
      setError(null);
      request.mutate(values, {
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
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={t('forgot.form')}>
          {request.data && (
            <Alert variant="success" role="status" data-testid="reset-requested">
              <AlertDescription>{request.data.message}</AlertDescription>
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
          <Button type="submit" disabled={request.isPending} className="w-full">
            {request.isPending ? t('forgot.sending') : t('forgot.submit')}
          </Button>
        </form>
      </Form>
    </AuthPanel>
  );
}
