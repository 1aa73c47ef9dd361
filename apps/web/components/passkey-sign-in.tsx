'use client';
import { useMutation } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { askForPasskey, passkeyBrowserProblem } from '../lib/passkeys';
import { useTRPC } from '../lib/trpc';
import { useStartSession } from '../lib/use-auth';
import { useMounted } from '../lib/use-mounted';
import { Button } from './ui/button';
import { FormError } from './ui/form';

/**
 * "Sign in with a passkey" (docs/accounts.md, "Passkeys"): no email, no password; the browser offers the
 * passkeys it holds for this site, and the one chosen signs in (it counts as both factors).
 */
export function PasskeySignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const t = useTranslations('auth.passkey');
  const mounted = useMounted();
  const trpc = useTRPC();
  const startSession = useStartSession();
  const options = useMutation(trpc.auth.passkeyLoginOptions.mutationOptions());
  const login = useMutation(trpc.auth.passkeyLogin.mutationOptions());
  const [error, setError] = useState<DisplayError | null>(null);
  const [busy, setBusy] = useState(false);

  async function signIn() {
    setError(null);
    setBusy(true);
    try {
      const optionsJSON = await options.mutateAsync({});
      const response = await askForPasskey(optionsJSON);
      startSession(await login.mutateAsync({ response }));
      onSignedIn();
    } catch (err) {
      const problem = passkeyBrowserProblem(err);
      setError(problem ? { message: t(`browser.${problem}`), fields: {} } : toDisplayError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="grid gap-2" data-testid="passkey-sign-in">
      <FormError error={error} />
      <Button variant="outline" onClick={signIn} disabled={!mounted || busy} className="w-full">
        <KeyRound aria-hidden />
        {busy ? t('waiting') : t('signIn')}
      </Button>
    </div>
  );
}
