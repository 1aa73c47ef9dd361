'use client';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { toDisplayError } from '../lib/errors';
import { useTRPC } from '../lib/trpc';
import { ErrorAlert, Notice } from './alert';

/** Landing page of the mailed link: verifies once on arrival and says what happened. */
export function VerifyEmail({ token }: { token: string | null }) {
  const trpc = useTRPC();
  const verify = useMutation(trpc.registration.verifyEmail.mutationOptions());
  const sent = useRef(false);

  useEffect(() => {
    // once per page view, even when React runs effects twice in development
    if (!token || sent.current) return;
    sent.current = true;
    verify.mutate({ token });
  }, [token, verify]);

  if (!token)
    return (
      <ErrorAlert error={{ message: 'This link has no verification token.', fields: {} }}>
        <p>
          Open the link from the email exactly as sent, or{' '}
          <Link href="/resend-verification">ask for a new one</Link>.
        </p>
      </ErrorAlert>
    );
  if (verify.isError)
    return (
      <ErrorAlert error={toDisplayError(verify.error)}>
        <p>
          The link may have expired or been mistyped. <Link href="/resend-verification">Send a new link</Link>
          .
        </p>
      </ErrorAlert>
    );
  if (!verify.data) return <p aria-live="polite">Verifying your email address…</p>;
  const already = verify.data.message === 'already verified';
  return (
    <Notice testId="verified">
      <p>
        {already ? 'This email address was already verified: ' : 'Your email address is verified: '}
        <strong>{verify.data.email}</strong>. Your account is {verify.data.status.replace('_', ' ')}.
      </p>
      <p>
        <Link href="/sign-in">Sign in</Link> or go to <Link href="/account">your account</Link>.
      </p>
    </Notice>
  );
}
