'use client';
import { useState } from 'react';
import { formatBallot } from '../../lib/governance/format';
import { formatTokenWeight } from '../../lib/governance/token';
import type { Dao, Proposal, ProposalStatus, Vote } from '../../lib/governance/types';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { useVoteSigner } from '../../lib/governance/use-vote-signer';
import { useVotesOf } from '../../lib/governance/use-votes-of';
import { Notice } from '../alert';
import { VoteForm } from './vote-form';
import { useVotingPower, VotingPowerList } from './voting-power';

/**
 * My vote(s) on this proposal, my voting power (governance.votes.power) for each of my wallets and the
 * connected one, then the vote form while voting is open: for the wallets that have not voted, or for all
 * of them when the DAO lets a voter change their vote. In a token DAO the wallets the server says cannot
 * vote (no tokens at the snapshot block, not a member…) are left off the ballot.
 */
export function VotePanel({
  proposal,
  status,
  members,
  allowVoteChange,
  rules,
}: {
  proposal: Proposal;
  status: ProposalStatus;
  members: string[] | undefined;
  allowVoteChange: boolean;
  rules?: Dao['votingRules'] | undefined;
}) {
  const mine = useMyWallets();
  const signer = useVoteSigner();
  const [justCast, setJustCast] = useState<Vote | null>(null);
  const addresses = [...mine.wallets];
  if (signer.address && !mine.isMine(signer.address)) addresses.push(signer.address);
  const votes = useVotesOf(proposal.proposalId, addresses);
  const token = rules?.token ?? null;
  const power = useVotingPower(proposal.proposalId, addresses, { status, votes: votes.votes.length });
  // token DAOs: a wallet the server says cannot vote (it keeps its reason above the ballot) is no choice
  const usable = (a: string) => {
    const p = power.powerOf(a);
    return !token || !p || p.eligible || !p.reason;
  };
  const notVoted = mine.wallets.filter((w) => (allowVoteChange || votes.voteOf(w) === null) && usable(w));
  // nothing left to vote with: every linked wallet and the connected one have voted (for good)
  const walletVoted = !allowVoteChange && !!signer.address && !!votes.voteOf(signer.address);
  const walletUsable = !signer.address || usable(signer.address);
  const changing = allowVoteChange && votes.votes.length > 0;
  const canVote = (mine.verified && notVoted.length > 0) || (!walletVoted && walletUsable);
  const weight = (w: string) => formatTokenWeight(w, token);

  return (
    <section aria-labelledby="my-vote-heading" className="stack">
      <h2 id="my-vote-heading">Your vote</h2>
      {justCast && (
        <Notice testId="vote-cast">
          Your vote for “{formatBallot(justCast.choice, proposal.votingSystem, proposal.votingOptions)}” was
          counted with {token ? weight(justCast.weight) : `weight ${weight(justCast.weight)}`}.
        </Notice>
      )}
      {votes.votes.length > 0 && (
        <ul className="card-list" data-testid="my-votes">
          {votes.votes.map((v) => (
            <li key={v.voteId} className="card">
              <strong>
                {formatBallot(v.choice, proposal.votingSystem, proposal.votingOptions) ??
                  'hidden until the end'}
              </strong>{' '}
              · {token ? weight(v.weight) : `weight ${weight(v.weight)}`}
              {v.signature ? ' · signed with EIP-712' : ''}
              <div className="address muted small">{v.voterAddress}</div>
              {v.comment && <p className="prose">{v.comment}</p>}
            </li>
          ))}
        </ul>
      )}
      {status === 'PENDING' && <p className="muted">Voting has not started yet.</p>}
      {status === 'ACTIVE' && (
        <VotingPowerList powers={power.powers} token={token} minWeight={rules?.minWeight ?? null} />
      )}
      {status === 'ACTIVE' && token && !mine.loading && !canVote && power.powers.length > 0 && (
        <p className="muted small" data-testid="no-ballot">
          None of your wallets can vote on this proposal, so there is no ballot. Connect or link a wallet that
          held {token.symbol} at the snapshot block.
        </p>
      )}
      {(status === 'PASSED' || status === 'REJECTED') && votes.votes.length === 0 && (
        <p className="muted">Voting has ended.</p>
      )}
      {status === 'ACTIVE' && changing && (
        <p className="muted small" data-testid="vote-change-allowed">
          This DAO lets you change your vote until voting ends: a new vote replaces your earlier one.
        </p>
      )}
      {status === 'ACTIVE' && !mine.loading && canVote && !(mine.signedIn && votes.loading) && (
        <VoteForm
          key={notVoted.join()}
          proposal={proposal}
          sessionWallets={mine.verified ? notVoted : []}
          members={members}
          onVoted={setJustCast}
        />
      )}
    </section>
  );
}
