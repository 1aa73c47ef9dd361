'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { useTRPC } from '../lib/trpc';
import { useMounted } from '../lib/use-mounted';
import { useSiweSigner } from '../lib/use-siwe';
import { Address } from './ui/address';
import { Notice } from './ui/alert';
import { Badge } from './ui/badge';
import { Button } from './ui/button';
import { DateTime } from './ui/date-time';
import { FormError } from './ui/form';
import { UnlinkRefusal, UnlinkWallet } from './wallet-unlink';

interface Wallet {
  address: string;
  isPrimary: boolean;
  linkedAt: string;
}

/**
 * Linked wallets, linking the connected one by signing an EIP-4361 message, choosing the primary one
 * (the owner recorded on new pins), and unlinking one.
 */
export function WalletList({ wallets }: { wallets: Wallet[] }) {
  const t = useTranslations('account.wallets');
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
  const [refused, setRefused] = useState<DisplayError | null>(null);
  const [linked, setLinked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function linkWallet() {
    setError(null);
    setRefused(null);
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
    <section aria-labelledby="wallets-heading" className="grid min-w-0 gap-3">
      <h2 id="wallets-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      {wallets.length === 0 ? (
        <p className="m-0">{t('none')}</p>
      ) : (
        <ul className="m-0 grid list-none gap-2 p-0" data-testid="wallets">
          {wallets.map((w) => (
            <li
              key={w.address}
              data-address={w.address}
              className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border bg-card p-3"
            >
              <Address address={w.address} />
              {w.isPrimary && (
                <Badge variant="secondary" data-testid="primary-badge">
                  {t('primary')}
                </Badge>
              )}
              <span className="text-sm text-muted-foreground">
                {t('linked')} <DateTime value={w.linkedAt} />
              </span>
              {!w.isPrimary && (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={makePrimary.isPending}
                  aria-label={t('makePrimaryNamed', { address: w.address })}
                  onClick={() => {
                    setError(null);
                    makePrimary.mutate({ address: w.address });
                  }}
                >
                  {t('makePrimary')}
                </Button>
              )}
              <UnlinkWallet
                address={w.address}
                isPrimary={w.isPrimary}
                onStart={() => {
                  setError(null);
                  setRefused(null);
                  setLinked(null);
                }}
                onRefused={setRefused}
              />
            </li>
          ))}
        </ul>
      )}
      {linked && (
        <Notice testId="wallet-linked">
          {t('linkedNotice')} <Address address={linked} />
        </Notice>
      )}
      <FormError error={error} />
      {refused && <UnlinkRefusal error={refused} />}
      <p className="m-0 text-sm text-muted-foreground">{t('switchHint')}</p>
      <Button className="justify-self-start" onClick={linkWallet} disabled={!mounted || busy}>
        {busy ? t('waiting') : wallets.length ? t('linkAnother') : t('link')}
      </Button>
    </section>
  );
}
