'use client';
import type { MFA_METHOD_NAMES } from '@plenum/validators';
import { useMutation } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { z } from 'zod';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { askForPasskey, passkeyBrowserProblem } from '../lib/passkeys';
import { useTRPC } from '../lib/trpc';
import { useStartSession } from '../lib/use-auth';
import { AuthPanel } from './auth-page';
import { Button } from './ui/button';
import { Form, FormError, TextField, useZodForm } from './ui/form';

/** what a sign-in of an account with a second factor answers instead of a session */
export interface MfaChallenge {
  mfaRequired: true;
  mfaToken: string;
  methods: (typeof MFA_METHOD_NAMES)[number][];
}

const answerSchema = z.object({ answer: z.string().trim().min(1) });

/**
 * The second step of a sign-in (docs/accounts.md, "Two-factor sign-in"): the 6-digit code of the
 * authenticator app, one of the recovery codes, or a passkey (docs/accounts.md, "Passkeys") when the
 * account has one. A challenge that is gone (expired or used) sends the person back to the first step.
 */
export function MfaStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: MfaChallenge;
  onSignedIn: () => void;
  onRestart: () => void;
}) {
  const t = useTranslations('auth.mfa');
  const tp = useTranslations('auth.passkey');
  const trpc = useTRPC();
  const hasCodes = challenge.methods.includes('totp');
  const hasPasskey = challenge.methods.includes('passkey');
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const passkeyOptions = useMutation(trpc.auth.passkeyLoginOptions.mutationOptions());
  const startSession = useStartSession();
  const [mode, setMode] = useState<'totp' | 'recovery_code'>('totp');
  const [error, setError] = useState<DisplayError | null>(null);
  const [gone, setGone] = useState(false);
  const finish = useMutation(trpc.auth.loginMfa.mutationOptions());
  const form = useZodForm(answerSchema, { defaultValues: { answer: '' } });

  const failed = (err: unknown) => {
    const problem = passkeyBrowserProblem(err);
    const shown = problem ? { message: tp(`browser.${problem}`), fields: {} } : toDisplayError(err);
    if (shown.reason === 'MFA_TOKEN_INVALID') setGone(true);
    setError(shown);
  };

  async function answerWithPasskey() {
    setError(null);
    setPasskeyBusy(true);
    try {
      const optionsJSON = await passkeyOptions.mutateAsync({ mfaToken: challenge.mfaToken });
      const passkey = await askForPasskey(optionsJSON);
      startSession(await finish.mutateAsync({ mfaToken: challenge.mfaToken, passkey }));
      onSignedIn();
    } catch (err) {
      failed(err);
    } finally {
      setPasskeyBusy(false);
    }
  }

  const onSubmit = form.handleSubmit((values) => {
    setError(null);
    const answer = values.answer.trim();
    finish.mutate(
      mode === 'totp'
        ? { mfaToken: challenge.mfaToken, code: answer.replace(/\s/g, '') }
        : { mfaToken: challenge.mfaToken, recoveryCode: answer },
      {
        onSuccess: (session) => {
          startSession(session);
          onSignedIn();
        },
        onError: (err) => {
          const shown = toDisplayError(err);
          if (shown.reason === 'MFA_TOKEN_INVALID') setGone(true);
          setError(shown);
          form.setValue('answer', '');
          form.setFocus('answer');
        },
      },
    );
  });

  return (
    <AuthPanel aria-labelledby="mfa-heading" data-testid="mfa-step">
      <h2 id="mfa-heading" className="m-0 text-base font-semibold">
        {t('heading')}
      </h2>
      <p className="m-0 text-sm text-muted-foreground">
        {!hasCodes ? t('leadPasskey') : mode === 'totp' ? t('leadTotp') : t('leadRecovery')}
      </p>
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <FormError error={error} />
          {gone ? (
            <Button type="button" onClick={onRestart} className="w-full">
              {t('restart')}
            </Button>
          ) : (
            <>
              {hasPasskey && (
                <Button
                  type="button"
                  variant={hasCodes ? 'outline' : 'default'}
                  onClick={answerWithPasskey}
                  disabled={passkeyBusy}
                  className="w-full"
                >
                  <KeyRound aria-hidden />
                  {passkeyBusy ? tp('waiting') : t('usePasskey')}
                </Button>
              )}
              {hasCodes && (
                <>
                  <TextField
                    key={mode}
                    form={form}
                    name="answer"
                    label={mode === 'totp' ? t('codeLabel') : t('recoveryLabel')}
                    autoComplete="one-time-code"
                    inputMode={mode === 'totp' ? 'numeric' : 'text'}
                    autoFocus
                    required
                  />
                  <Button type="submit" disabled={finish.isPending} className="w-full">
                    {finish.isPending ? t('checking') : t('submit')}
                  </Button>
                </>
              )}
              {challenge.methods.includes('recovery_code') && (
                <Button
                  type="button"
                  variant="link"
                  className="h-auto justify-self-start p-0"
                  onClick={() => {
                    setError(null);
                    form.reset({ answer: '' });
                    setMode(mode === 'totp' ? 'recovery_code' : 'totp');
                  }}
                >
                  {mode === 'totp' ? t('useRecovery') : t('useApp')}
                </Button>
              )}
              <Button type="button" variant="ghost" className="justify-self-start" onClick={onRestart}>
                {t('cancel')}
              </Button>
            </>
          )}
        </form>
      </Form>
    </AuthPanel>
  );
}
