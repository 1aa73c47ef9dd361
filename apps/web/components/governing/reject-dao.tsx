'use client';
import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { DaoSummary } from '../../lib/governance/types';
import { useTRPC } from '../../lib/trpc';
import { TextAreaField } from '../governance/controls';
import { useGovernanceError } from '../governance/use-governance-error';
import { Notice } from '../ui/alert';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';

/**
 * An admin's Reject beside Approve in the DAO queue (governance.daos.reject): a reason is required; the
 * DAO becomes INACTIVE and its owner is mailed the reason (docs/governance.md, "Approval").
 */
export function RejectDao({ dao, onRejected }: { dao: DaoSummary; onRejected: () => void }) {
  const t = useTranslations('governing.reject');
  const governanceError = useGovernanceError();
  const trpc = useTRPC();
  const reject = useMutation(trpc.governance.daos.reject.mutationOptions());
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant="outline"
        className="border-destructive text-destructive"
        aria-label={t('rejectNamed', { name: dao.name })}
        onClick={() => {
          setMissing(false);
          setOpen(true);
        }}
      >
        {t('reject')}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        destructive
        title={t('title', { name: dao.name })}
        description={<span data-testid="reject-consequences">{t('consequences')}</span>}
        confirmLabel={t('confirm')}
        onConfirm={async () => {
          if (!reason.trim()) {
            setMissing(true);
            throw new Error(t('reasonRequired'));
          }
          try {
            await reject.mutateAsync({ daoId: dao.daoId, reason: reason.trim() });
          } catch (err) {
            throw new Error(governanceError(err).message);
          }
          setReason('');
          onRejected();
        }}
      >
        <TextAreaField
          label={t('reason')}
          name="reason"
          rows={3}
          maxLength={1000}
          required
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            if (e.target.value.trim()) setMissing(false);
          }}
          errors={missing ? [t('reasonRequired')] : undefined}
        />
      </ConfirmDialog>
    </>
  );
}

/** the notice after a rejection */
export function Rejected({ name }: { name: string }) {
  const t = useTranslations('governing.reject');
  return <Notice testId="dao-rejected">{t('rejected', { name })}</Notice>;
}
