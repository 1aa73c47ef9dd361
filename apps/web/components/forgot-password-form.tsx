'use client';
import { passwordResetRequestInput } from '@plenum/validators';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { formValues, validate } from '../lib/form';
import { useTRPC } from '../lib/trpc';
import { ErrorAlert, Notice } from './alert';
import { Field } from './field';

/** Asks for a reset link. The API answers the same for any address (no enumeration), so the page does too. */
export function ForgotPasswordForm() {
  const trpc = useTRPC();
  const request = useMutation(trpc.auth.requestPasswordReset.mutationOptions());
  const [error, setError] = useState<DisplayError | null>(null);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const checked = validate(passwordResetRequestInput, formValues(e.currentTarget));
    if (!checked.ok) return setError(checked.error);
    setError(null);
    request.mutate(checked.data, { onError: (err) => setError(toDisplayError(err)) });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="stack" aria-label="Request a password reset link">
      {request.data && <Notice testId="reset-requested">{request.data.message}</Notice>}
      <ErrorAlert error={error} />
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        errors={error?.fields.email}
      />
      <button type="submit" disabled={request.isPending}>
        {request.isPending ? 'Sending…' : 'Send me a reset link'}
      </button>
    </form>
  );
}
