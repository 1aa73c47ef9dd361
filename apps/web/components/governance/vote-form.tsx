'use client';
import { castVoteInput } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { formValues } from '../../lib/form';
import { governanceError } from '../../lib/governance/errors';
import { type Proposal, sameAddress, type Vote } from '../../lib/governance/types';
import { useVoteSigner } from '../../lib/governance/use-vote-signer';
import { validateWith } from '../../lib/governance/validate';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { TextAreaField } from './controls';

const WALLET = 'wallet';

/**
 * Choice + comment, cast either with the session for one of my wallets that has not voted, or signed
 * by the browser wallet with EIP-712 (no session needed; docs/governance.md, "Signed votes").
 */
export function VoteForm({
  proposal,
  sessionWallets,
  members,
  onVoted,
}: {
  proposal: Proposal;
  /** my linked wallets that have not voted yet (empty when signed out) */
  sessionWallets: string[];
  members: string[] | undefined;
  onVoted: (vote: Vote) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const signer = useVoteSigner();
  const [error, setError] = useState<DisplayError | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const cast = useMutation(trpc.governance.votes.cast.mutationOptions());
  const member = (a: string) => !members || members.some((m) => sameAddress(m, a));
  const defaultAs = sessionWallets.find(member) ?? sessionWallets[0] ?? WALLET;

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    const as = v.voteAs ?? WALLET;
    const base = {
      proposalId: proposal.proposalId,
      daoId: proposal.daoId,
      choice: v.choice,
      comment: v.comment ?? '',
    };
    // the same schema as the API; a placeholder address until the wallet tells its own
    const checked = validateWith(castVoteInput, {
      ...base,
      voterAddress: as === WALLET ? (signer.address ?? '0x0000000000000000000000000000000000000000') : as,
    });
    if (!checked.ok) return setError(checked.error);
    setError(null);
    try {
      let vote: Vote;
      if (as === WALLET) {
        setBusy('Confirm the vote in your wallet…');
        const signed = await signer.sign({ ...base, choice: base.choice ?? '' });
        setBusy('Casting your vote…');
        vote = await cast.mutateAsync({ ...base, choice: base.choice ?? '', ...signed });
      } else {
        setBusy('Casting your vote…');
        vote = await cast.mutateAsync(checked.data);
      }
      queryClient.setQueryData(
        trpc.governance.votes.byVoter.queryKey({
          proposalId: proposal.proposalId,
          voterAddress: vote.voterAddress,
        }),
        vote,
      );
      void queryClient.invalidateQueries({
        queryKey: trpc.governance.votes.results.queryKey({ proposalId: proposal.proposalId }),
      });
      void queryClient.invalidateQueries({
        queryKey: trpc.governance.votes.byProposal.queryKey({ proposalId: proposal.proposalId }),
      });
      onVoted(vote);
    } catch (err) {
      setError(governanceError(err));
    } finally {
      setBusy(null);
    }
  }

  const f = error?.fields ?? {};
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="stack"
      aria-labelledby={`${id}-heading`}
      data-testid="vote-form"
    >
      <h3 id={`${id}-heading`}>Cast your vote</h3>
      <ErrorAlert error={error} />
      <fieldset
        className="stack choices"
        aria-describedby={f.choice?.length ? `${id}-choice-errors` : undefined}
      >
        <legend>Your choice</legend>
        {proposal.votingOptions.map((o) => (
          <div key={o} className="checkbox">
            <input type="radio" id={`${id}-choice-${o}`} name="choice" value={o} required />
            <label htmlFor={`${id}-choice-${o}`}>{o}</label>
          </div>
        ))}
        {f.choice?.length ? (
          <ul id={`${id}-choice-errors`} className="field-errors" data-field-errors="choice">
            {f.choice.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        ) : null}
      </fieldset>
      <TextAreaField label="Comment (optional)" name="comment" rows={3} maxLength={1000} errors={f.comment} />
      <fieldset className="stack">
        <legend>Vote as</legend>
        {sessionWallets.map((w) => (
          <div key={w} className="checkbox">
            <input
              type="radio"
              id={`${id}-as-${w}`}
              name="voteAs"
              value={w}
              defaultChecked={w === defaultAs}
            />
            <label htmlFor={`${id}-as-${w}`} className="address">
              {w} {member(w) ? '' : '(not a member)'}
            </label>
          </div>
        ))}
        <div className="checkbox">
          <input
            type="radio"
            id={`${id}-as-wallet`}
            name="voteAs"
            value={WALLET}
            defaultChecked={defaultAs === WALLET}
          />
          <label htmlFor={`${id}-as-wallet`}>
            Sign with my browser wallet{signer.address ? ` (${signer.address})` : ''}
          </label>
        </div>
        <p className="muted small">
          A signed vote (EIP-712) needs no session: your wallet signs the proposal, choice and comment, and
          anyone can verify it later.
        </p>
        {f.voterAddress && <p className="field-errors">{f.voterAddress.join(' ')}</p>}
      </fieldset>
      <button type="submit" disabled={busy !== null}>
        {busy ?? 'Cast vote'}
      </button>
    </form>
  );
}
