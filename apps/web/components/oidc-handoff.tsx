'use client';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTRPC } from '../lib/trpc';
import { useStartSession } from '../lib/use-auth';

/**
 * After a sign-in with an OpenID provider the API sends the browser back with `#session=<handoff>`
 * (docs/accounts.md, "Signing in with OpenID Connect"): the fragment is taken off the address at once
 * and redeemed for the session, which this app keeps as its Bearer token.
 */
export function OidcHandoff() {
  const trpc = useTRPC();
  const startSession = useStartSession();
  const redeem = useMutation(trpc.auth.oidcHandoff.mutationOptions());
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    const handoff = new URLSearchParams(window.location.hash.slice(1)).get('session');
    if (!handoff) return;
    done.current = true;
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    redeem.mutate({ handoff }, { onSuccess: (session) => startSession(session) });
  }, [redeem, startSession]);
  return null;
}
