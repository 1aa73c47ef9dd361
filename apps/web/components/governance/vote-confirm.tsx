'use client';
import { canonicalChoice } from '@plenum/validators/canonical';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useRef, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { shortAddress } from '../../lib/governance/format';
import type { TokenRef } from '../../lib/governance/token';
import type { CastVote, Proposal } from '../../lib/governance/types';
import { useAmounts } from '../../lib/governance/use-amounts';
import { useVoteSigner } from '../../lib/governance/use-vote-signer';
import { type VoteStep, voteFailure, WALLET_TIMEOUT_MS, withTimeout } from '../../lib/governance/vote-flow';
import { useTRPC } from '../../lib/trpc';
import { Button } from '../ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../ui/dialog';
import { useTranslateError } from './use-governance-error';
import { usePowerText } from './voting-power';

export const WALLET = 'wallet';

export interface PendingVote {
  /** one of my linked wallets (the session votes for it), or WALLET: the browser wallet signs */
  as: string;
  choice: string | string[] | Record<string, number>;
  comment: string;
  /** the ballot in words */
  choiceText: string;
  /** the weight of `as` when known (base units) */
  weight: string | null;
}

/**
 * The confirm step before a vote is cast: the choice, the weight, and for the browser wallet that it is
 * an off-chain signature (no gas). Then the wait for the wallet (given up after two minutes) and the
 * server, each failure in words with a retry. A refusal with field errors goes back to the ballot.
 */
export function VoteConfirm({
  proposal,
  pending,
  token,
  onClose,
  onVoted,
  onFieldErrors,
}: {
  proposal: Proposal;
  pending: PendingVote;
  token: Pick<TokenRef, 'decimals' | 'symbol' | 'standard'> | null;
  onClose: () => void;
  onVoted: (vote: CastVote) => void;
  onFieldErrors: (error: DisplayError) => void;
}) {
  const t = useTranslations('governance.confirm');
  const amounts = useAmounts();
  const powerText = usePowerText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const signer = useVoteSigner();
  const cast = useMutation(trpc.governance.votes.cast.mutationOptions());
  const [step, setStep] = useState<VoteStep>({ kind: 'confirm' });
  const [weight, setWeight] = useState(pending.weight);
  const busy = step.kind === 'wallet' || step.kind === 'sending';
  const confirmRef = useRef<HTMLButtonElement>(null);
  const viaWallet = pending.as === WALLET;
  const base = {
    proposalId: proposal.proposalId,
    daoId: proposal.daoId,
    choice: pending.choice,
    comment: pending.comment,
  };

  async function run() {
    try {
      let vote: CastVote;
      if (viaWallet) {
        setStep({ kind: 'wallet' });
        const address = await withTimeout(signer.connect(), WALLET_TIMEOUT_MS);
        // "can I vote?" before the signature: the server's answer for the wallet that connected
        const power = await queryClient.fetchQuery(
          trpc.governance.votes.power.queryOptions({ proposalId: proposal.proposalId, address }),
        );
        if (!power.eligible && power.reason) {
          const message = powerText.reason(power.reason, token, null);
          return setStep({ kind: 'failed', failure: { kind: 'refused', error: { message, fields: {} } } });
        }
        setWeight(power.weight);
        // the wallet signs a string: the option, or an array or object ballot's RFC 8785 canonical JSON
        const signed = await withTimeout(
          signer.sign({ ...base, choice: canonicalChoice(base.choice) }, address),
          WALLET_TIMEOUT_MS,
        );
        setStep({ kind: 'sending' });
        vote = await cast.mutateAsync({ ...base, ...signed });
      } else {
        setStep({ kind: 'sending' });
        vote = await cast.mutateAsync({ ...base, voterAddress: pending.as });
      }
      queryClient.setQueryData(
        trpc.governance.votes.byVoter.queryKey({
          proposalId: proposal.proposalId,
          voterAddress: vote.voterAddress,
        }),
        vote,
      );
      for (const key of [
        trpc.governance.votes.results.queryKey({ proposalId: proposal.proposalId }),
        trpc.governance.votes.byProposal.pathKey(),
        trpc.governance.votes.power.pathKey(),
      ])
        void queryClient.invalidateQueries({ queryKey: key });
      onVoted(vote);
    } catch (err) {
      const failure = voteFailure(err);
      const fields = failure.kind === 'refused' ? Object.keys(failure.error.fields).filter(Boolean) : [];
      if (failure.kind === 'refused' && fields.length) return onFieldErrors(failure.error);
      setStep({ kind: 'failed', failure });
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent
        data-testid="vote-confirm"
        aria-busy={busy}
        showClose={!busy}
        // the choice is already made on the ballot: Enter confirms it
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          confirmRef.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{t('title')}</DialogTitle>
          <DialogDescription>{proposal.title}</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">{t('choice')}</dt>
          <dd className="font-medium break-words" data-testid="confirm-choice">
            {pending.choiceText}
          </dd>
          {pending.comment.trim() && (
            <>
              <dt className="text-muted-foreground">{t('comment')}</dt>
              <dd className="break-words whitespace-pre-line" data-testid="confirm-comment">
                {pending.comment}
              </dd>
            </>
          )}
          <dt className="text-muted-foreground">{t('as')}</dt>
          <dd className="break-all">
            {viaWallet
              ? signer.address
                ? shortAddress(signer.address)
                : t('browserWallet')
              : shortAddress(pending.as)}
          </dd>
          <dt className="text-muted-foreground">{t('weight')}</dt>
          <dd data-testid="confirm-weight">
            {weight !== null ? amounts.tokenWeight(weight, token) : t('weightLater')}
          </dd>
        </dl>
        {viaWallet && (
          <p className="text-sm" data-testid="off-chain">
            {t('offChain')}
          </p>
        )}
        <StepStatus step={step} />
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            {t('cancel')}
          </Button>
          {step.kind === 'failed' ? (
            <Button onClick={run}>{t('retry')}</Button>
          ) : (
            <Button ref={confirmRef} onClick={run} disabled={busy}>
              {busy ? t('wait') : t('confirm')}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function StepStatus({ step }: { step: VoteStep }) {
  const t = useTranslations('governance.confirm');
  const translate = useTranslateError();
  if (step.kind === 'wallet')
    return (
      <p role="status" className="text-sm" data-testid="vote-step">
        {t('inWallet', { minutes: WALLET_TIMEOUT_MS / 60_000 })}
      </p>
    );
  if (step.kind === 'sending')
    return (
      <p role="status" className="text-sm" data-testid="vote-step">
        {t('sending')}
      </p>
    );
  if (step.kind !== 'failed') return null;
  const f = step.failure;
  const message =
    f.kind === 'rejected'
      ? t('rejected')
      : f.kind === 'timeout'
        ? t('timeout', { minutes: f.seconds / 60 })
        : f.kind === 'refused'
          ? t('refused', { reason: translate(f.error).message })
          : translate(f.error).message;
  return (
    <div
      role="alert"
      className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm"
      data-testid="vote-failed"
      data-failure={f.kind}
    >
      {message}
    </div>
  );
}
