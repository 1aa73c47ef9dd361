'use client';
import { changePasswordInput } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { type FormEvent, useState } from 'react';
import { type DisplayError, toDisplayError } from '../../lib/errors';
import { formValues, validate } from '../../lib/form';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert, Notice } from '../alert';
import { Field } from '../field';
import { PasswordHints } from '../password-hints';
import { Button } from '../ui/button';

/** Changes the password with the current one; the server signs out every other session. */
export function ChangePasswordForm() {
  const t = useTranslations('account.password');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<DisplayError | null>(null);
  const [password, setPassword] = useState('');
  const change = useMutation(
    trpc.auth.changePassword.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.auth.sessions.queryKey() }),
    }),
  );

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const checked = validate(changePasswordInput, { ...formValues(form), newPassword: password });
    if (!checked.ok) return setError(checked.error);
    setError(null);
    change.mutate(checked.data, {
      onSuccess: () => {
        form.reset();
        setPassword('');
      },
      onError: (err) => setError(toDisplayError(err)),
    });
  }

  return (
    <section aria-labelledby="change-password-heading" className="stack">
      <h2 id="change-password-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <form onSubmit={onSubmit} noValidate className="stack narrow" data-testid="change-password-form">
        {change.data && !error && (
          <Notice testId="password-changed">{t('changed', { count: change.data.endedSessions })}</Notice>
        )}
        <ErrorAlert error={error} />
        <Field
          label={t('current')}
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          errors={error?.fields.currentPassword}
        />
        <Field
          label={t('new')}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          errors={error?.fields.newPassword}
          hint={<PasswordHints password={password} />}
        />
        <p className="muted">{t('note')}</p>
        <Button type="submit" className="justify-self-start" disabled={change.isPending}>
          {change.isPending ? t('changing') : t('submit')}
        </Button>
      </form>
    </section>
  );
}
