'use client';
import { passwordResetConfirmInput } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { validate } from '../lib/form';
import { useTRPC } from '../lib/trpc';
import { ErrorAlert, Notice } from './alert';
import { Field } from './field';
import { PasswordHints } from './password-hints';

/** reasons that mean the link itself is spent: only a new link helps */
const LINK_PROBLEMS = new Set(['RESET_TOKEN_INVALID', 'RESET_TOKEN_USED', 'RESET_TOKEN_EXPIRED']);

/** Landing page of the mailed link: a new password (with the live policy hints) for the token. */
export function ResetPasswordForm({ token }: { token: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const reset = useMutation(
    trpc.auth.resetPassword.mutationOptions({
      // every session of the account ended: whatever this browser held is re-checked
      onSuccess: () => void queryClient.resetQueries(),
    }),
  );
  const [password, setPassword] = useState('');
  const [error, setError] = useState<DisplayError | null>(null);

  if (!token)
    return (
      <ErrorAlert error={{ message: 'This link has no reset token.', fields: {} }}>
        <p>
          Open the link from the email exactly as sent, or{' '}
          <Link href="/forgot-password">ask for a new one</Link>.
        </p>
      </ErrorAlert>
    );
  if (reset.data)
    return (
      <Notice testId="password-reset">
        <p>{reset.data.message}</p>
        <p>
          You were signed out everywhere. <Link href="/sign-in">Sign in</Link>
        </p>
      </Notice>
    );

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const checked = validate(passwordResetConfirmInput, { token, newPassword: password });
    if (!checked.ok) return setError(checked.error);
    setError(null);
    reset.mutate(checked.data, { onError: (err) => setError(toDisplayError(err)) });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="stack" aria-label="Choose a new password">
      <ErrorAlert error={error}>
        {error?.reason && LINK_PROBLEMS.has(error.reason) && (
          <p>
            <Link href="/forgot-password">Ask for a new link</Link>.
          </p>
        )}
      </ErrorAlert>
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
      <button type="submit" disabled={reset.isPending}>
        {reset.isPending ? 'Saving…' : 'Set the new password'}
      </button>
    </form>
  );
}
