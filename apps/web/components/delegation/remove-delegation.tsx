'use client';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { toast } from 'sonner';
import { useDelegationChange } from '../../lib/delegation/use-delegation-change';
import type { MyDelegation } from '../../lib/delegation/use-my-delegations';
import { shortAddress } from '../../lib/governance/format';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { useFailureText } from './use-failure-text';

/**
 * "Remove delegation", asked first: with the session for a linked wallet, signed by the browser wallet
 * for a connected one that is not linked (docs/governance.md, "Delegating"). Taken in a DAO of any status.
 */
export function RemoveDelegation({
  daoId,
  delegations,
  label,
  onDone,
}: {
  daoId: string;
  /** my wallets' delegations to remove (those delegating to one delegate) */
  delegations: MyDelegation[];
  label?: string;
  onDone: () => void;
}) {
  const t = useTranslations('delegation.remove');
  const [open, setOpen] = useState(false);
  const change = useDelegationChange(daoId);
  const failureText = useFailureText();
  const first = delegations[0];
  if (!first?.delegate) return null;

  async function confirm() {
    try {
      for (const d of delegations) await change.remove(d.wallet, !d.linked);
    } catch (err) {
      onDone();
      throw new Error(failureText(err));
    }
    toast.success(t('done'));
    onDone();
  }

  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} data-testid="remove-delegation">
        {label ?? t('confirm')}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        destructive
        title={t('title')}
        description={
          <span data-testid="remove-delegation-text">
            {t('text', {
              wallet: delegations.map((d) => shortAddress(d.wallet)).join(', '),
              delegate: shortAddress(first.delegate),
            })}
          </span>
        }
        confirmLabel={t('confirm')}
        onConfirm={confirm}
      />
    </>
  );
}
