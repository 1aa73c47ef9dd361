'use client';
import { changePasswordInput } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { type DisplayError, toDisplayError } from '../../lib/errors';
import { useTRPC } from '../../lib/trpc';
import { PasswordHints } from '../password-hints';
import { Notice } from '../ui/alert';
import { Button } from '../ui/button';
import { Form, FormError, setServerErrors, TextField, useZodForm } from '../ui/form';

/** Changes the password with the current one; the server signs out every other session. */
export function ChangePasswordForm() {
  const t = useTranslations('account.password');
  const ta = useTranslations('auth');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<DisplayError | null>(null);
  const form = useZodForm(changePasswordInput, { defaultValues: { currentPassword: '', newPassword: '' } });
  const change = useMutation(
    trpc.auth.changePassword.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.auth.sessions.queryKey() }),
    }),
  );
  const newPassword = form.watch('newPassword');

  const onSubmit = form.handleSubmit(
    (values) => {
      setError(null);
      change.mutate(values, {
        onSuccess: () => form.reset(),
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
    <section aria-labelledby="change-password-heading" className="grid gap-4">
      <h2 id="change-password-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <Form {...form}>
        <form
          onSubmit={onSubmit}
          noValidate
          className="grid max-w-md gap-4"
          data-testid="change-password-form"
        >
          {change.data && !error && (
            <Notice testId="password-changed">{t('changed', { count: change.data.endedSessions })}</Notice>
          )}
          <FormError error={error} />
          <TextField
            form={form}
            name="currentPassword"
            label={t('current')}
            type="password"
            autoComplete="current-password"
            required
          />
          <TextField
            form={form}
            name="newPassword"
            label={t('new')}
            type="password"
            autoComplete="new-password"
            required
            hint={<PasswordHints password={newPassword ?? ''} />}
          />
          <p className="m-0 text-sm text-muted-foreground">{t('note')}</p>
          <Button type="submit" className="justify-self-start" disabled={change.isPending}>
            {change.isPending ? t('changing') : t('submit')}
          </Button>
        </form>
      </Form>
    </section>
  );
}
