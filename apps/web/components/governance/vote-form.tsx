'use client';
import { canonicalChoice, castVoteInput } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { formValues } from '../../lib/form';
import { governanceError } from '../../lib/governance/errors';
import { type BallotDraft, ballotChoice, emptyDraft } from '../../lib/governance/systems';
import { type Proposal, sameAddress, type Vote } from '../../lib/governance/types';
import { useVoteSigner } from '../../lib/governance/use-vote-signer';
import { validateWith } from '../../lib/governance/validate';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { TextAreaField } from './controls';
import { PointsBallot } from './points-ballot';
import { RankingBallot } from './ranking-ballot';

const WALLET = 'wallet';

/**
 * The ballot the proposal's voting system takes (radios, checkboxes, a ranking or points) + comment, cast either with the session for one of my wallets that has not voted, or signed
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
  const [draft, setDraft] = useState<BallotDraft>(() => emptyDraft(proposal.votingSystem));
  const [busy, setBusy] = useState<string | null>(null);
  const cast = useMutation(trpc.governance.votes.cast.mutationOptions());
  const member = (a: string) => !members || members.some((m) => sameAddress(m, a));
  const defaultAs = sessionWallets.find(member) ?? sessionWallets[0] ?? WALLET;

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    const as = v.voteAs ?? WALLET;
    const ballot = ballotChoice(proposal.votingOptions, draft);
    const base = {
      proposalId: proposal.proposalId,
      daoId: proposal.daoId,
      choice: ballot.ok ? ballot.choice : '',
      comment: v.comment ?? '',
    };
    // the same schema as the API; a placeholder address until the wallet tells its own
    const checked = validateWith(castVoteInput, {
      ...base,
      voterAddress: as === WALLET ? (signer.address ?? '0x0000000000000000000000000000000000000000') : as,
    });
    if (!ballot.ok || !checked.ok) {
      const fields = checked.ok ? {} : { ...checked.error.fields };
      if (!ballot.ok) fields.choice = ballot.messages;
      return setError({ message: 'Please correct the highlighted fields.', fields });
    }
    setError(null);
    try {
      let vote: Vote;
      if (as === WALLET) {
        setBusy('Confirm the vote in your wallet…');
        // the wallet signs a string: the option, or an array or object ballot's RFC 8785 canonical JSON
        const signed = await signer.sign({ ...base, choice: canonicalChoice(base.choice) });
        setBusy('Casting your vote…');
        vote = await cast.mutateAsync({ ...base, ...signed });
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
      <Ballot
        proposal={proposal}
        draft={draft}
        onChange={setDraft}
        errors={f.choice}
        errorsId={`${id}-choice-errors`}
      />
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

/** The ballot of the proposal's voting system, its errors (the form's or the API's) right below it. */
function Ballot({
  proposal,
  draft,
  onChange,
  errors,
  errorsId,
}: {
  proposal: Proposal;
  draft: BallotDraft;
  onChange: (draft: BallotDraft) => void;
  errors: string[] | undefined;
  errorsId: string;
}) {
  const id = useId();
  const options = proposal.votingOptions;
  const describedBy = errors?.length ? errorsId : undefined;
  return (
    <fieldset
      className="stack choices"
      aria-describedby={describedBy}
      data-testid="ballot"
      data-voting-system={proposal.votingSystem}
    >
      <legend>Your choice</legend>
      {draft.kind === 'single' &&
        options.map((o, i) => (
          <div key={o} className="checkbox">
            <input
              type="radio"
              id={`${id}-choice-${i}`}
              name="choice"
              value={o}
              checked={draft.option === o}
              onChange={() => onChange({ kind: 'single', option: o })}
            />
            <label htmlFor={`${id}-choice-${i}`}>{o}</label>
          </div>
        ))}
      {draft.kind === 'approval' && (
        <>
          <p className="muted small">
            Approve every option you support: each gets your full weight. You may approve none; that still
            counts as a vote toward turnout and quorum.
          </p>
          {options.map((o, i) => (
            <div key={o} className="checkbox">
              <input
                type="checkbox"
                id={`${id}-choice-${i}`}
                name="choice"
                value={o}
                checked={draft.approved.includes(o)}
                onChange={(e) =>
                  onChange({
                    kind: 'approval',
                    approved: e.target.checked
                      ? [...draft.approved, o]
                      : draft.approved.filter((a) => a !== o),
                  })
                }
              />
              <label htmlFor={`${id}-choice-${i}`}>{o}</label>
            </div>
          ))}
        </>
      )}
      {draft.kind === 'ranked' && (
        <RankingBallot
          options={options}
          ranking={draft.ranking}
          onChange={(ranking) => onChange({ kind: 'ranked', ranking })}
          describedBy={describedBy}
        />
      )}
      {draft.kind === 'points' && (
        <PointsBallot
          options={options}
          points={draft.points}
          onChange={(points) => onChange({ kind: 'points', points })}
          quadratic={proposal.votingSystem === 'quadratic'}
          describedBy={describedBy}
        />
      )}
      {errors?.length ? (
        <ul id={errorsId} className="field-errors" data-field-errors="choice">
          {errors.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
