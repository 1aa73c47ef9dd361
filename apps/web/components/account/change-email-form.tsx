'use client';
import { emailChangeInput } from '@plenum/validators';
import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { type DisplayError, toDisplayError } from '../../lib/errors';
import { useTRPC } from '../../lib/trpc';
import { Notice } from '../ui/alert';
import { Button } from '../ui/button';
import { Form, FormError, setServerErrors, TextField, useZodForm } from '../ui/form';

/**
 * "Change email" on the Security tab (docs/accounts.md, "Changing the email address"): the new address and
 * the current password (a second-factor code for an account without one). Nothing changes until the link
 * mailed to the new address is opened; the notice says so.
 */
export function ChangeEmailForm({ email, hasPassword }: { email: string; hasPassword: boolean }) {
  const t = useTranslations('account.email');
  const ta = useTranslations('auth');
  const trpc = useTRPC();
  const [error, setError] = useState<DisplayError | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useZodForm(emailChangeInput, {
    defaultValues: hasPassword ? { newEmail: '', password: '' } : { newEmail: '', code: '' },
  });
  const request = useMutation(trpc.auth.requestEmailChange.mutationOptions());

  const onSubmit = form.handleSubmit(
    (values) => {
      setError(null);
      setSentTo(null);
      request.mutate(values, {
        onSuccess: () => {
          setSentTo(values.newEmail);
          form.reset();
        },
        onError: (err) => {
          const shown = toDisplayError(err);
          setServerErrors(form, shown);
          setError(shown);
        },
      });
    },
    () => setError({ message: ta('fixFields'), fields: {} }),
  );

  return (
    <section aria-labelledby="change-email-heading" className="grid gap-4">
      <h2 id="change-email-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <p className="m-0" data-testid="current-email">
        {t('current', { email })}
      </p>
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate className="grid max-w-md gap-4" data-testid="change-email-form">
          {sentTo && !error && (
            <Notice testId="email-change-sent">{t('sent', { email: sentTo, current: email })}</Notice>
          )}
          <FormError error={error} />
          <TextField
            form={form}
            name="newEmail"
            label={t('new')}
            type="email"
            autoComplete="email"
            required
          />
          {hasPassword ? (
            <TextField
              form={form}
              name="password"
              label={t('password')}
              type="password"
              autoComplete="current-password"
              required
            />
          ) : (
            <TextField
              form={form}
              name="code"
              label={t('code')}
              autoComplete="one-time-code"
              required
              hint={t('codeHint')}
            />
          )}
          <p className="m-0 text-sm text-muted-foreground">{t('note')}</p>
          <Button type="submit" className="justify-self-start" disabled={request.isPending}>
            {request.isPending ? t('sending') : t('submit')}
          </Button>
        </form>
      </Form>
    </section>
  );
}
