'use client';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { useTRPC } from '../lib/trpc';
import { useStartSession } from '../lib/use-auth';
import { useMounted } from '../lib/use-mounted';
import { useSiweSigner } from '../lib/use-siwe';
import { ErrorAlert } from './alert';

/**
 * "Sign in with Ethereum": the wallet signs an EIP-4361 message and the API starts a session for the
 * account the wallet is linked to. A wallet linked to nobody gets the offer to register and link it.
 */
export function SiweSignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const mounted = useMounted();
  const trpc = useTRPC();
  const signer = useSiweSigner();
  const startSession = useStartSession();
  const siwe = useMutation(trpc.auth.siwe.mutationOptions());
  const [error, setError] = useState<DisplayError | null>(null);
  const [unlinked, setUnlinked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function signIn() {
    setError(null);
    setUnlinked(null);
    setBusy(true);
    let address: string | null = null;
    try {
      const signed = await signer.sign('Sign in to Plenum.');
      address = signed.address;
      const session = await siwe.mutateAsync({ message: signed.message, signature: signed.signature });
      startSession(session);
      onSignedIn();
    } catch (err) {
      const shown = toDisplayError(err);
      if (shown.reason === 'WALLET_NOT_LINKED') setUnlinked(address ?? 'this wallet');
      else setError(shown);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="siwe-heading" className="stack">
      <h2 id="siwe-heading">With your wallet</h2>
      <ErrorAlert error={error} />
      {unlinked && (
        <div role="alert" className="alert alert-info" data-testid="wallet-not-linked">
          <p>
            The wallet <code className="address">{unlinked}</code> is not linked to an account yet.
          </p>
          <p>
            <Link href="/register?linkWallet=1" className="button">
              Register, and this wallet is linked on the way
            </Link>
          </p>
          <p>Already have an account? Sign in with your email, then link the wallet on your account page.</p>
        </div>
      )}
      <button type="button" onClick={signIn} disabled={!mounted || busy}>
        {busy ? 'Waiting for your wallet…' : 'Sign in with Ethereum'}
      </button>
    </section>
  );
}
