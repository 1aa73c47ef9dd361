'use client';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { type VoteStep, WALLET_TIMEOUT_MS, withTimeout } from '../governance/vote-flow';
import { useTRPC } from '../trpc';
import { useDelegationSigner, ZERO_ADDRESS } from './use-delegation-signer';

/** the choice "sign with the browser wallet" beside my linked wallets */
export const BROWSER_WALLET = 'wallet';

/**
 * Setting and removing a delegation (docs/governance.md, "Delegating"), with the session for a linked
 * wallet or signed by the browser wallet (`as` BROWSER_WALLET, or `signed` for a removal). `step` says
 * where a change is (the wallet, the server) for the dialog; failures are thrown to the caller.
 */
export function useDelegationChange(daoId: string) {
  const trpc = useTRPC();
  const signer = useDelegationSigner();
  const set = useMutation(trpc.governance.delegation.set.mutationOptions());
  const del = useMutation(trpc.governance.delegation.remove.mutationOptions());
  const [step, setStep] = useState<VoteStep>({ kind: 'confirm' });

  /** a signature of the connected wallet (connecting it first), given up after two minutes */
  async function signed(delegateAddress: string) {
    setStep({ kind: 'wallet' });
    const delegator = await withTimeout(signer.connect(), WALLET_TIMEOUT_MS);
    const sig = await withTimeout(signer.sign({ daoId, delegateAddress }, delegator), WALLET_TIMEOUT_MS);
    return { delegator, ...sig };
  }

  async function delegate(as: string, delegateAddress: string) {
    try {
      if (as === BROWSER_WALLET) {
        const { delegator, signature, timestamp } = await signed(delegateAddress);
        setStep({ kind: 'sending' });
        return await set.mutateAsync({
          daoId,
          delegatorAddress: delegator,
          delegateAddress,
          signature,
          timestamp,
        });
      }
      setStep({ kind: 'sending' });
      return await set.mutateAsync({ daoId, delegatorAddress: as, delegateAddress });
    } finally {
      setStep({ kind: 'confirm' });
    }
  }

  /**
   * `viaWallet`: the delegator is the connected browser wallet, not a linked one: it signs the removal
   * (of its own delegation: the account connected when it signs)
   */
  async function remove(delegator: string, viaWallet: boolean) {
    try {
      if (viaWallet) {
        const { delegator: account, signature, timestamp } = await signed(ZERO_ADDRESS);
        setStep({ kind: 'sending' });
        return await del.mutateAsync({ daoId, address: account, signature, timestamp });
      }
      setStep({ kind: 'sending' });
      return await del.mutateAsync({ daoId, address: delegator });
    } finally {
      setStep({ kind: 'confirm' });
    }
  }

  return { delegate, remove, step, walletAddress: signer.address };
}
