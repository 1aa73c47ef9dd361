'use client';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { toDisplayError } from '../../lib/errors';
import { formatBallot } from '../../lib/governance/format';
import type { CastVote, Dao, Proposal, ProposalStatus } from '../../lib/governance/types';
import { useAmounts } from '../../lib/governance/use-amounts';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { useVoteSigner } from '../../lib/governance/use-vote-signer';
import { useVotesOf } from '../../lib/governance/use-votes-of';
import { voteBox } from '../../lib/governance/vote-box';
import { useInjectedWallet } from '../../lib/use-injected-wallet';
import { DelegationStatus } from '../delegation/delegation-status';
import { Address } from '../ui/address';
import { Notice } from '../ui/alert';
import { Button } from '../ui/button';
import { FormError } from '../ui/form';
import { QueryState } from '../ui/query-state';
import { Countdown } from './countdown';
import { VoteForm } from './vote-form';
import { ReceiptCid, VoteReceipt } from './vote-receipt';
import { useVotingPower, VotingPowerList } from './voting-power';

/**
 * "Cast your vote": first whether I can vote and with which weight (governance.votes.power for my
 * linked wallets and the connected one), and why not; then the ballot for the addresses that may vote,
 * or "Your vote: …" once one of mine has voted (with "Change vote" where the DAO allows it). A user none
 * of whose addresses may vote sees the reasons and no ballot.
 */
export function VotePanel({
  proposal,
  status,
  allowVoteChange,
  rules,
}: {
  proposal: Proposal;
  status: ProposalStatus;
  allowVoteChange: boolean;
  rules?: Dao['votingRules'] | undefined;
}) {
  const t = useTranslations('governance.vote');
  const mine = useMyWallets();
  const signer = useVoteSigner();
  const wallet = useInjectedWallet();
  const [justCast, setJustCast] = useState<CastVote | null>(null);
  const [reopened, setReopened] = useState(false);
  const [connectError, setConnectError] = useState<ReturnType<typeof toDisplayError> | null>(null);
  const addresses = [...mine.wallets];
  if (signer.address && !mine.isMine(signer.address)) addresses.push(signer.address);
  const votes = useVotesOf(proposal.proposalId, addresses);
  const token = rules?.token ?? null;
  const power = useVotingPower(proposal.proposalId, addresses, { status, votes: votes.votes.length });
  const box = voteBox({
    status,
    allowVoteChange,
    reopened,
    sessionWallets: mine.verified ? mine.wallets : [],
    connected: signer.address,
    powerOf: (a) => {
      const p = power.powerOf(a);
      // a vote the page already knows of counts before the server's power answer follows
      return p && { eligible: p.eligible, hasVoted: p.hasVoted || !!votes.voteOf(a) };
    },
    myVotes: votes.votes.length,
  });
  // a closed proposal's record holds every vote: each of mine shows its receipt once it is published
  const closed = status === 'PASSED' || status === 'REJECTED' || status === 'CANCELLED';
  const amounts = useAmounts();
  const weight = (w: string) => amounts.tokenWeight(w, token);
  // signed in, my wallets unknown (the read failed or is on its way): no "connect a wallet" from it
  const meUnknown = mine.signedIn && mine.me.data === undefined;
  const loading = mine.loading || meUnknown || (mine.signedIn && votes.loading);
  // "Change vote" starts from the vote it changes (the first ballot wallet's, else my latest)
  const earlier =
    reopened && allowVoteChange
      ? (box.ballotWallets.map((w) => votes.voteOf(w)).find((v) => !!v) ?? votes.votes[0] ?? null)
      : null;

  return (
    <section aria-labelledby="my-vote-heading" className="flex flex-col gap-3" data-testid="vote-box">
      <h2 id="my-vote-heading" className="text-lg font-semibold">
        {t('heading')}
      </h2>
      {justCast && (
        <Notice testId="vote-cast">
          {t('counted', {
            choice:
              formatBallot(
                justCast.choice,
                proposal.votingSystem,
                proposal.votingOptions,
                t('noneApproved'),
              ) ?? '',
            weight: token ? weight(justCast.weight) : t('weight', { weight: weight(justCast.weight) }),
          })}
          {/* the ballot's leaf in the record to come: GET /votes/{voteId}/receipt proves it after the close */}
          <span className="mt-1 block min-w-0 text-xs" data-testid="cast-receipt">
            {t('receipt')} <ReceiptCid cid={justCast.receipt} testId="cast-receipt-cid" />
          </span>
        </Notice>
      )}
      {votes.votes.length > 0 && (
        <ul className="flex flex-col gap-2" data-testid="my-votes">
          {votes.votes.map((v) => (
            <li key={v.voteId} className="rounded-md border p-3 text-sm" data-testid="your-vote">
              <p>
                {t('yourVote')}{' '}
                <strong>
                  {formatBallot(v.choice, proposal.votingSystem, proposal.votingOptions, t('noneApproved')) ??
                    t('hidden')}
                </strong>
              </p>
              {/* the "·" goes with what follows it, and the wallet has a line of its own: a wrapped line
                  never ends in one (375 px) */}
              <p className="flex flex-wrap items-center gap-x-1.5 text-muted-foreground">
                <span>{token ? weight(v.weight) : t('weight', { weight: weight(v.weight) })}</span>
                {v.signature && <span>· {t('signed')}</span>}
              </p>
              <Address address={v.voterAddress} className="text-muted-foreground" />
              {v.comment && <p className="mt-1 break-words">{v.comment}</p>}
              {closed && <VoteReceipt proposal={proposal} voteId={v.voteId} />}
            </li>
          ))}
        </ul>
      )}
      <div data-testid="eligibility" className="flex flex-col gap-1 text-sm">
        {status === 'PENDING' && (
          <p>
            {t('notStarted')}{' '}
            <Countdown status={status} startTime={proposal.startTime} endTime={proposal.endTime} />
          </p>
        )}
        {(status === 'PASSED' || status === 'REJECTED') && <p>{t('ended')}</p>}
        {status === 'ACTIVE' && (
          <VotingPowerList powers={power.powers} token={token} minWeight={rules?.minWeight ?? null} />
        )}
      </div>
      {status === 'ACTIVE' && rules?.delegation && (
        <DelegationStatus
          proposal={proposal}
          token={token}
          // a vote the page already knows of counts before the server's power answer follows
          powers={power.powers.map((p) => ({ ...p, hasVoted: p.hasVoted || !!votes.voteOf(p.address) }))}
        />
      )}
      {status === 'ACTIVE' && box.mode === 'voted' && (allowVoteChange || box.ballotWallets.length > 0) && (
        <Button variant="outline" className="self-start" onClick={() => setReopened(true)}>
          {allowVoteChange ? t('change') : t('another')}
        </Button>
      )}
      {status === 'ACTIVE' && reopened && allowVoteChange && (
        <p className="text-sm text-muted-foreground" data-testid="vote-change-allowed">
          {t('changeAllowed')}
        </p>
      )}
      {meUnknown && <QueryState query={mine.me}>{() => null}</QueryState>}
      {!loading && box.mode === 'loading' && <p className="text-sm">{t('checking')}</p>}
      {!loading && (box.mode === 'connect' || box.mode === 'cannot') && (
        <div className="flex flex-col gap-2 text-sm" data-testid="no-ballot">
          <p>
            {addresses.length === 0
              ? t('connectToSee')
              : box.mode === 'connect'
                ? t('noLinkedCanVote')
                : t('noneCanVote')}
          </p>
          {mine.signedIn && !mine.verified && mine.wallets.length > 0 && <p>{t('verifyFirst')}</p>}
          {box.mode === 'connect' && (
            <Button
              className="self-start"
              onClick={() => {
                setConnectError(null);
                wallet.connected().catch((err: unknown) => setConnectError(toDisplayError(err)));
              }}
            >
              {t('connect')}
            </Button>
          )}
          <FormError error={connectError} />
        </div>
      )}
      {!loading && box.mode === 'ballot' && (
        <VoteForm
          key={`${box.ballotWallets.join()}:${earlier?.voteId ?? ''}`}
          proposal={proposal}
          sessionWallets={box.ballotWallets}
          walletOption={box.walletOption}
          powerOf={power.powerOf}
          token={token}
          earlier={earlier}
          onVoted={(v) => {
            setJustCast(v);
            setReopened(false);
          }}
        />
      )}
    </section>
  );
}
