'use client';
import { useMutation } from '@tanstack/react-query';
import { Wallet } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { useTRPC } from '../lib/trpc';
import { useStartSession } from '../lib/use-auth';
import { useMounted } from '../lib/use-mounted';
import { useSiweSigner } from '../lib/use-siwe';
import { AuthPanel } from './auth-page';
import type { MfaChallenge } from './mfa-step';
import { Alert, AlertDescription } from './ui/alert';
import { Button } from './ui/button';
import { FormError } from './ui/form';

/**
 * "Sign in with Ethereum": the wallet signs an EIP-4361 message and the API starts a session for the
 * account the wallet is linked to. A wallet linked to nobody gets the offer to register and link it.
 */
export function SiweSignIn({
  onSignedIn,
  onChallenge,
}: {
  onSignedIn: () => void;
  onChallenge: (challenge: MfaChallenge) => void;
}) {
  const t = useTranslations('auth.siwe');
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
      const answer = await siwe.mutateAsync({ message: signed.message, signature: signed.signature });
      if ('mfaRequired' in answer) return onChallenge(answer);
      startSession(answer);
      onSignedIn();
    } catch (err) {
      const shown = toDisplayError(err);
      if (shown.reason === 'WALLET_NOT_LINKED') setUnlinked(address ?? t('thisWallet'));
      else setError(shown);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthPanel aria-labelledby="siwe-heading">
      <h2 id="siwe-heading" className="m-0 text-base font-semibold">
        {t('heading')}
      </h2>
      <p className="text-sm text-muted-foreground">{t('lead')}</p>
      <FormError error={error} />
      {unlinked && (
        <Alert variant="info" role="alert" data-testid="wallet-not-linked">
          <AlertDescription>
            <p>{t('notLinked', { address: unlinked })}</p>
            <Button asChild size="sm" className="my-1 h-auto min-h-8 whitespace-normal py-1.5 text-left">
              <Link href="/register?linkWallet=1">{t('registerAndLink')}</Link>
            </Button>
            <p>{t('haveAccount')}</p>
          </AlertDescription>
        </Alert>
      )}
      <Button variant="outline" onClick={signIn} disabled={!mounted || busy} className="w-full">
        <Wallet aria-hidden />
        {busy ? t('waiting') : t('submit')}
      </Button>
    </AuthPanel>
  );
}
