'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Pencil, XCircle } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { Proposal, ProposalStatus } from '../../lib/governance/types';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { useTRPC } from '../../lib/trpc';
import { TextAreaField } from '../governance/controls';
import { useGovernanceError } from '../governance/use-governance-error';
import { useVotingPower } from '../governance/voting-power';
import { Address } from '../ui/address';
import { Alert, AlertDescription } from '../ui/alert';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DateTime } from '../ui/date-time';

/**
 * Cancel and Edit on a proposal page, shown only when they work: the voting-power read says for each of
 * my wallets whether it may cancel (author while open; the DAO's owner, admins, moderators) or edit
 * (author or admin, while PENDING). Cancelling asks first and says what happens.
 */
export function ProposalActions({
  proposal,
  status,
  voteCount,
}: {
  proposal: Proposal;
  status: ProposalStatus;
  voteCount: number;
}) {
  const t = useTranslations('governing.cancel');
  const te = useTranslations('governing.edit');
  const governanceError = useGovernanceError();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const mine = useMyWallets();
  const { powers } = useVotingPower(proposal.proposalId, mine.verified ? mine.wallets : [], {
    status,
    votes: voteCount,
  });
  const cancel = useMutation(trpc.governance.proposals.cancel.mutationOptions());
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const canceller = powers.find((p) => p.canCancel)?.address;
  const editor = powers.find((p) => p.canEdit)?.address;
  if (status === 'PASSED' || status === 'REJECTED' || status === 'CANCELLED') return null;
  if (!canceller && !editor) return null;

  const onCancel = async () => {
    try {
      await cancel.mutateAsync({
        proposalId: proposal.proposalId,
        actorAddress: canceller,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      });
    } catch (err) {
      throw new Error(governanceError(err).message);
    }
    setReason('');
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.governance.proposals.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.governance.votes.pathKey() }),
      queryClient.invalidateQueries({
        queryKey: trpc.governance.daos.get.queryKey({ daoId: proposal.daoId }),
      }),
    ]);
  };

  return (
    <div className="flex flex-wrap gap-2" data-testid="proposal-actions">
      {editor && status === 'PENDING' && (
        <Button asChild variant="outline" size="sm">
          <Link href={`/proposals/${proposal.proposalId}/edit`}>
            <Pencil aria-hidden="true" />
            {te('button')}
          </Link>
        </Button>
      )}
      {canceller && (
        <Button
          variant="outline"
          size="sm"
          className="border-destructive text-destructive"
          onClick={() => setAsking(true)}
        >
          <XCircle aria-hidden="true" />
          {t('button')}
        </Button>
      )}
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        destructive
        title={t('title', { title: proposal.title })}
        description={<span data-testid="cancel-consequences">{t('consequences')}</span>}
        confirmLabel={t('confirm')}
        cancelLabel={t('keep')}
        onConfirm={onCancel}
      >
        <TextAreaField
          label={t('reason')}
          name="reason"
          rows={3}
          maxLength={1000}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </ConfirmDialog>
    </div>
  );
}

/** A cancelled proposal: who cancelled it, when, and why. */
export function CancellationNote({ proposal }: { proposal: Proposal }) {
  const t = useTranslations('governing.cancel');
  const c = proposal.cancellation;
  if (!c) return null;
  return (
    <Alert variant="warning" role="status" data-testid="cancellation">
      <AlertDescription>
        <p className="flex flex-wrap items-center gap-x-2">
          {t('cancelledBy')} <Address address={c.cancelledBy} />
          <span>
            · <DateTime value={c.cancelledAt} />
          </span>
        </p>
        <p data-testid="cancel-reason">{c.reason ? t('reasonWas', { reason: c.reason }) : t('noReason')}</p>
        <p className="text-muted-foreground">{t('afterwards')}</p>
      </AlertDescription>
    </Alert>
  );
}
