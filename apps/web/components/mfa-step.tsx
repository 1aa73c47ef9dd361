'use client';
import type { MFA_METHOD_NAMES } from '@plenum/validators';
import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { z } from 'zod';
import { type DisplayError, toDisplayError } from '../lib/errors';
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
 * authenticator app, or one of the recovery codes. A challenge that is gone (expired or used) sends the
 * person back to the first step.
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
  const trpc = useTRPC();
  const startSession = useStartSession();
  const [mode, setMode] = useState<'totp' | 'recovery_code'>('totp');
  const [error, setError] = useState<DisplayError | null>(null);
  const [gone, setGone] = useState(false);
  const finish = useMutation(trpc.auth.loginMfa.mutationOptions());
  const form = useZodForm(answerSchema, { defaultValues: { answer: '' } });

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
        {mode === 'totp' ? t('leadTotp') : t('leadRecovery')}
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
