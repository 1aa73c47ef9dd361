'use client';
import { VOTING_SYSTEM_TRAITS } from '@plenum/validators/voting-systems';
import { useTranslations } from 'next-intl';
import { type FormEvent, useId, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { formValues } from '../../lib/form';
import { formatBallot } from '../../lib/governance/format';
import { type BallotDraft, type BallotIssue, ballotChoice, draftOf } from '../../lib/governance/systems';
import type { TokenRef } from '../../lib/governance/token';
import type { CastVote, Proposal, Vote } from '../../lib/governance/types';
import { useVoteSigner } from '../../lib/governance/use-vote-signer';
import { validateWith } from '../../lib/governance/validate';
import { Address, shortAddress } from '../ui/address';
import { Button } from '../ui/button';
import { FieldErrors } from '../ui/field';
import { FormError } from '../ui/form';
import { TextAreaField } from './controls';
import { PointsBallot } from './points-ballot';
import { RankingBallot } from './ranking-ballot';
import { type PendingVote, VoteConfirm, WALLET } from './vote-confirm';

/**
 * The ballot the proposal's voting system takes (radios, checkboxes, a ranking or points) + comment, cast
 * either with the session for one of my wallets that may vote, or signed by the browser wallet with
 * EIP-712 (no session needed; docs/governance.md, "Signed votes"). Checked with the API's schema first,
 * then confirmed in a dialog (VoteConfirm) before anything is signed or sent.
 */
export function VoteForm({
  proposal,
  sessionWallets,
  walletOption,
  powerOf,
  token,
  earlier,
  onVoted,
}: {
  proposal: Proposal;
  /** the vote being changed: the ballot and comment start from it */
  earlier?: Pick<Vote, 'choice' | 'comment'> | null | undefined;
  /** my linked wallets that may vote now */
  sessionWallets: string[];
  /** whether the browser wallet is offered */
  walletOption: boolean;
  powerOf: (address: string) => { weight: string } | undefined;
  token: Pick<TokenRef, 'decimals' | 'symbol' | 'standard'> | null;
  onVoted: (vote: CastVote) => void;
}) {
  const t = useTranslations('governance.vote');
  const tv = useTranslations('common.validation');
  const issueText = useBallotIssueText();
  const id = useId();
  const signer = useVoteSigner();
  const [error, setError] = useState<DisplayError | null>(null);
  const [draft, setDraft] = useState<BallotDraft>(() =>
    draftOf(proposal.votingSystem, proposal.votingOptions, earlier?.choice),
  );
  const [pending, setPending] = useState<PendingVote | null>(null);
  const defaultAs = sessionWallets[0] ?? WALLET;

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    // the schema (zod) loads on the first vote: reading a proposal never needs it
    const { castVoteInput } = await import('@plenum/validators');
    const as = v.voteAs ?? defaultAs;
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
      if (!ballot.ok) fields.choice = ballot.issues.map(issueText);
      return setError({ message: tv('fixFields'), fields });
    }
    setError(null);
    const known = as === WALLET ? (signer.address ? powerOf(signer.address) : undefined) : powerOf(as);
    setPending({
      as,
      choice: checked.data.choice,
      comment: base.comment,
      choiceText:
        formatBallot(checked.data.choice, proposal.votingSystem, proposal.votingOptions, t('noneApproved')) ??
        '',
      weight: known?.weight ?? null,
    });
  }

  const f = error?.fields ?? {};
  return (
    <>
      <form
        onSubmit={onSubmit}
        noValidate
        className="flex flex-col gap-3"
        aria-labelledby={`${id}-heading`}
        data-testid="vote-form"
      >
        <h3 id={`${id}-heading`} className="sr-only">
          {t('ballot')}
        </h3>
        <FormError error={error} />
        <Ballot
          proposal={proposal}
          draft={draft}
          onChange={setDraft}
          errors={f.choice}
          errorsId={`${id}-choice-errors`}
        />
        <TextAreaField
          label={t('comment')}
          name="comment"
          rows={3}
          maxLength={1000}
          defaultValue={earlier?.comment ?? ''}
          errors={f.comment}
        />
        <fieldset className="flex flex-col gap-1">
          <legend className="text-sm font-medium">{t('voteAs')}</legend>
          {sessionWallets.map((w) => (
            <div key={w} className="checkbox">
              <input
                type="radio"
                id={`${id}-as-${w}`}
                name="voteAs"
                value={w}
                defaultChecked={w === defaultAs}
              />
              {/* the short address (the full one in its title): a full one took three lines at 375 px */}
              <label htmlFor={`${id}-as-${w}`} className="min-w-0">
                <Address address={w} name={null} copy={false} />
              </label>
            </div>
          ))}
          {walletOption && (
            <div className="checkbox">
              <input
                type="radio"
                id={`${id}-as-wallet`}
                name="voteAs"
                value={WALLET}
                defaultChecked={defaultAs === WALLET}
              />
              <label htmlFor={`${id}-as-wallet`} title={signer.address ?? undefined}>
                {t('signWithWallet')}
                {signer.address ? ` (${shortAddress(signer.address)})` : ''}
              </label>
            </div>
          )}
          {walletOption && <p className="text-xs text-muted-foreground">{t('signedHint')}</p>}
          <FieldErrors errors={f.voterAddress} />
        </fieldset>
        <Button type="submit" className="self-start">
          {t('cast')}
        </Button>
      </form>
      {pending && (
        <VoteConfirm
          proposal={proposal}
          pending={pending}
          token={token}
          onClose={() => setPending(null)}
          onVoted={(vote) => {
            setPending(null);
            onVoted(vote);
          }}
          onFieldErrors={(err) => {
            setPending(null);
            setError(err);
          }}
        />
      )}
    </>
  );
}

/** ballotChoice's issues in the page's language */
function useBallotIssueText() {
  const t = useTranslations('governance.ballot.issues');
  return (issue: BallotIssue): string => {
    switch (issue.code) {
      case 'notOption':
        return t('notOption', { names: issue.names });
      case 'points':
        return t(`points.${issue.problem}`, { option: issue.option });
      default:
        return t(issue.code);
    }
  };
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
  const t = useTranslations('governance.ballot');
  const options = proposal.votingOptions;
  const describedBy = errors?.length ? errorsId : undefined;
  return (
    <fieldset
      className="flex min-w-0 flex-col gap-3"
      aria-describedby={describedBy}
      data-testid="ballot"
      data-voting-system={proposal.votingSystem}
    >
      <legend className="font-semibold">{t('yourChoice')}</legend>
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
          <p className="text-sm text-muted-foreground">{t('approvalHint')}</p>
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
          quadratic={VOTING_SYSTEM_TRAITS[proposal.votingSystem].squareRoot}
          describedBy={describedBy}
        />
      )}
      <FieldErrors id={errorsId} name="choice" errors={errors} />
    </fieldset>
  );
}
