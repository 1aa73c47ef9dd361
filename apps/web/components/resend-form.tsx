'use client';
import { resendVerificationInput } from '@plenum/validators';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { formValues, validate } from '../lib/form';
import { useTRPC } from '../lib/trpc';
import { ErrorAlert, Notice } from './alert';
import { Field } from './field';

/** The API answers the same for any address (no enumeration), so the page does too. */
export function ResendForm({ defaultEmail }: { defaultEmail?: string }) {
  const trpc = useTRPC();
  const resend = useMutation(trpc.registration.resendVerification.mutationOptions());
  const [error, setError] = useState<DisplayError | null>(null);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const checked = validate(resendVerificationInput, formValues(e.currentTarget));
    if (!checked.ok) return setError(checked.error);
    setError(null);
    resend.mutate(checked.data, { onError: (err) => setError(toDisplayError(err)) });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="stack" aria-label="Resend verification email">
      {resend.data && <Notice testId="resent">{resend.data.message}</Notice>}
      <ErrorAlert error={error} />
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={defaultEmail}
        errors={error?.fields.email}
      />
      <button type="submit" disabled={resend.isPending}>
        {resend.isPending ? 'Sending…' : 'Send the verification email'}
      </button>
    </form>
  );
}
