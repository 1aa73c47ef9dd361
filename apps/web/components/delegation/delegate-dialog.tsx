'use client';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { BROWSER_WALLET, useDelegationChange } from '../../lib/delegation/use-delegation-change';
import { shortAddress } from '../../lib/governance/format';
import { sameAddress } from '../../lib/governance/types';
import { WALLET_TIMEOUT_MS } from '../../lib/governance/vote-flow';
import { Address } from '../ui/address';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { useFailureText } from './use-failure-text';

/**
 * Delegate to `delegate` (docs/governance.md, "Delegating"): choose which of my wallets delegates when I
 * have several (never the delegate itself), or sign with the browser wallet, then confirm. The dialog
 * says where the change is (the wallet, the server) and keeps a failure in words for a retry.
 */
export function DelegateDialog({
  daoId,
  delegate,
  wallets,
  walletOption,
  open,
  onOpenChange,
  onDone,
}: {
  daoId: string;
  delegate: string;
  /** my linked wallets that may delegate with the session */
  wallets: string[];
  /** offer "sign with your browser wallet" */
  walletOption: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone: () => void;
}) {
  const t = useTranslations('delegation.dialog');
  const tc = useTranslations('governance.confirm');
  const id = useId();
  const failureText = useFailureText();
  const change = useDelegationChange(daoId);
  const choices = wallets.filter((w) => !sameAddress(w, delegate));
  const [as, setAs] = useState<string | undefined>(undefined);
  const chosen = as ?? choices[0] ?? BROWSER_WALLET;

  async function confirm() {
    try {
      await change.delegate(chosen, delegate);
    } catch (err) {
      throw new Error(failureText(err));
    }
    toast.success(t('done', { address: shortAddress(delegate) }));
    onDone();
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={
        <>
          <Address address={delegate} copy={false} />
          <span>{t('text')}</span>
        </>
      }
      confirmLabel={t('confirm')}
      onConfirm={confirm}
    >
      <fieldset className="flex flex-col gap-1" data-testid="delegate-as">
        <legend className="text-sm font-medium">{t('as')}</legend>
        {choices.map((w) => (
          <div key={w} className="checkbox">
            <input
              type="radio"
              id={`${id}-${w}`}
              name="delegateAs"
              value={w}
              checked={chosen === w}
              onChange={() => setAs(w)}
            />
            <label htmlFor={`${id}-${w}`} className="min-w-0">
              <Address address={w} name={null} copy={false} />
            </label>
          </div>
        ))}
        {walletOption && (
          <div className="checkbox">
            <input
              type="radio"
              id={`${id}-wallet`}
              name="delegateAs"
              value={BROWSER_WALLET}
              checked={chosen === BROWSER_WALLET}
              onChange={() => setAs(BROWSER_WALLET)}
            />
            <label htmlFor={`${id}-wallet`} title={change.walletAddress ?? undefined}>
              {t('signWithWallet')}
              {change.walletAddress ? ` (${shortAddress(change.walletAddress)})` : ''}
            </label>
          </div>
        )}
        {chosen === BROWSER_WALLET && (
          <p className="text-xs text-muted-foreground" data-testid="off-chain">
            {t('signedHint')}
          </p>
        )}
      </fieldset>
      {change.step.kind === 'wallet' && (
        <p role="status" className="text-sm" data-testid="delegate-step">
          {tc('inWallet', { minutes: WALLET_TIMEOUT_MS / 60_000 })}
        </p>
      )}
      {change.step.kind === 'sending' && (
        <p role="status" className="text-sm" data-testid="delegate-step">
          {t('sending')}
        </p>
      )}
    </ConfirmDialog>
  );
}
