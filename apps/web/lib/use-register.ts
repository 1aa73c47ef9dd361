'use client';
import type { registerInput } from '@plenum/validators';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { type DisplayError, toDisplayError } from './errors';
import { useTRPC, useTRPCClient } from './trpc';
import { useStartSession } from './use-auth';
import { useSiweSigner } from './use-siwe';

type Registration = z.output<typeof registerInput>;
export type RegisterState =
  | { step: 'idle' }
  | { step: 'busy'; what: 'creating' | 'signingIn' | 'linking' }
  | { step: 'registered'; email: string }
  | { step: 'linked'; address: string }
  | { step: 'failed'; error: DisplayError; signedIn: boolean };

/**
 * Registration; with `linkWallet`, the new account is signed in with the same credentials and the
 * connected wallet signs a fresh EIP-4361 message that links it (a registration gives no session).
 */
export function useRegister(linkWallet: boolean) {
  const client = useTRPCClient();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const signer = useSiweSigner();
  const startSession = useStartSession();
  const [state, setState] = useState<RegisterState>({ step: 'idle' });

  async function submit(input: Registration) {
    let signedIn = false;
    try {
      setState({ step: 'busy', what: 'creating' });
      const user = await client.registration.register.mutate(input);
      if (!linkWallet) return setState({ step: 'registered', email: user.email });
      setState({ step: 'busy', what: 'signingIn' });
      // a new account has no second factor: the answer is its session
      const answer = await client.auth.login.mutate({ email: input.email, password: input.password });
      if ('mfaRequired' in answer) throw new Error('a new account asked for a second factor');
      startSession(answer);
      signedIn = true;
      setState({ step: 'busy', what: 'linking' });
      const signed = await signer.sign('Link this wallet to my Plenum account.');
      const wallet = await client.auth.linkWallet.mutate({
        message: signed.message,
        signature: signed.signature,
      });
      await queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
      setState({ step: 'linked', address: wallet.address });
    } catch (err) {
      setState({ step: 'failed', error: toDisplayError(err), signedIn });
    }
  }

  return {
    state,
    submit,
    fail: (error: DisplayError) => setState({ step: 'failed', error, signedIn: false }),
  };
}
