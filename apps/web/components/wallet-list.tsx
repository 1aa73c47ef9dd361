'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { useTRPC } from '../lib/trpc';
import { useMounted } from '../lib/use-mounted';
import { useSiweSigner } from '../lib/use-siwe';
import { ErrorAlert, Notice } from './alert';

interface Wallet {
  address: string;
  isPrimary: boolean;
  linkedAt: string;
}

/**
 * Linked wallets, linking the connected one by signing an EIP-4361 message, and choosing the primary
 * one (the owner recorded on new pins).
 */
export function WalletList({ wallets }: { wallets: Wallet[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const mounted = useMounted();
  const signer = useSiweSigner();
  const link = useMutation(trpc.auth.linkWallet.mutationOptions());
  const makePrimary = useMutation(
    trpc.auth.setPrimaryWallet.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() }),
      onError: (err) => setError(toDisplayError(err)),
    }),
  );
  const [error, setError] = useState<DisplayError | null>(null);
  const [linked, setLinked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function linkWallet() {
    setError(null);
    setLinked(null);
    setBusy(true);
    try {
      const signed = await signer.sign('Link this wallet to my Plenum account.');
      const wallet = await link.mutateAsync({ message: signed.message, signature: signed.signature });
      setLinked(wallet.address);
      await queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
    } catch (err) {
      setError(toDisplayError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="wallets-heading" className="stack">
      <h2 id="wallets-heading">Wallets</h2>
      {wallets.length === 0 ? (
        <p>No wallet linked yet. Link one to sign in with Ethereum and to act for it.</p>
      ) : (
        <ul className="wallets" data-testid="wallets">
          {wallets.map((w) => (
            <li key={w.address}>
              <code className="address">{w.address}</code>
              {w.isPrimary && (
                <span className="badge" data-testid="primary-badge">
                  primary
                </span>
              )}
              <span className="muted"> linked {new Date(w.linkedAt).toLocaleDateString()}</span>
              {!w.isPrimary && (
                <button
                  type="button"
                  className="secondary"
                  disabled={makePrimary.isPending}
                  aria-label={`Make ${w.address} the primary wallet`}
                  onClick={() => {
                    setError(null);
                    makePrimary.mutate({ address: w.address });
                  }}
                >
                  Make primary
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {linked && <Notice testId="wallet-linked">Linked {linked}.</Notice>}
      <ErrorAlert error={error} />
      <p className="muted">To link a different address, switch accounts in your wallet first.</p>
      <button type="button" onClick={linkWallet} disabled={!mounted || busy}>
        {busy ? 'Waiting for your wallet…' : wallets.length ? 'Link another wallet' : 'Link a wallet'}
      </button>
    </section>
  );
}
