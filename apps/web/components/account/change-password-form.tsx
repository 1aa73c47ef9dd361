'use client';
import { changePasswordInput } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type DisplayError, toDisplayError } from '../../lib/errors';
import { formValues, validate } from '../../lib/form';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert, Notice } from '../alert';
import { Field } from '../field';
import { PasswordHints } from '../password-hints';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Changes the password with the current one; the server signs out every other session. */
export function ChangePasswordForm() {
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
      <h2 id="change-password-heading">Change password</h2>
      <form onSubmit={onSubmit} noValidate className="stack narrow" data-testid="change-password-form">
        {change.data && !error && (
          <Notice testId="password-changed">
            Password changed.{' '}
            {change.data.endedSessions
              ? `${plural(change.data.endedSessions, 'other session was', 'other sessions were')} signed out.`
              : 'You had no other sessions to sign out.'}
          </Notice>
        )}
        <ErrorAlert error={error} />
        <Field
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          errors={error?.fields.currentPassword}
        />
        <Field
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          errors={error?.fields.newPassword}
          hint={<PasswordHints password={password} />}
        />
        <p className="muted">
          Your other sessions are signed out; this one stays. Access tokens keep working.
        </p>
        <button type="submit" disabled={change.isPending}>
          {change.isPending ? 'Changing…' : 'Change password'}
        </button>
      </form>
    </section>
  );
}
