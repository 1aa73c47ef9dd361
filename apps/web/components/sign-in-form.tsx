'use client';
import { loginInput } from '@plenum/validators';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { formValues, validate } from '../lib/form';
import { useTRPC } from '../lib/trpc';
import { useStartSession } from '../lib/use-auth';
import { ErrorAlert } from './alert';
import { Field } from './field';

/** Email + password sign-in; calls onSignedIn once the session is stored. */
export function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const trpc = useTRPC();
  const startSession = useStartSession();
  const [error, setError] = useState<DisplayError | null>(null);
  const login = useMutation(trpc.auth.login.mutationOptions());

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const checked = validate(loginInput, formValues(e.currentTarget));
    if (!checked.ok) return setError(checked.error);
    setError(null);
    login.mutate(checked.data, {
      onSuccess: (session) => {
        startSession(session);
        onSignedIn();
      },
      onError: (err) => setError(toDisplayError(err)),
    });
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="sign-in-email-heading" className="stack">
      <h2 id="sign-in-email-heading">With email and password</h2>
      <ErrorAlert error={error} />
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        errors={error?.fields.email}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        errors={error?.fields.password}
      />
      <button type="submit" disabled={login.isPending}>
        {login.isPending ? 'Signing in…' : 'Sign in'}
      </button>
      <p>
        <Link href="/forgot-password">Forgot your password?</Link>
      </p>
    </form>
  );
}
