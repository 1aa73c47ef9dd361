'use client';
import { createDaoInput, tokenLookupInput } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { formValues } from '../../lib/form';
import { governanceError } from '../../lib/governance/errors';
import { toBaseUnits } from '../../lib/governance/token';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { numberOrUndefined, validateWith } from '../../lib/governance/validate';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { Field } from '../field';
import { TextAreaField } from './controls';
import { emptyTokenDraft, type Membership, type TokenDraft, TokenSection, wantsToken } from './token-section';
import { NeedsAccount, WalletSelect } from './wallet-select';

/** New DAO: name, description, owner wallet and voting rules; validated with the API's own schema. */
export function CreateDaoForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { signedIn, verified, wallets, loading } = useMyWallets();
  const [error, setError] = useState<DisplayError | null>(null);
  const create = useMutation(trpc.governance.daos.create.mutationOptions());
  const [token, setToken] = useState<TokenDraft>(emptyTokenDraft);
  const [membership, setMembership] = useState<Membership>('members');
  const [converting, setConverting] = useState(false);
  const hasToken = wantsToken(token);

  /** the minimum in whole tokens → base units, with the decimals the lookup finds (cached when looked up) */
  async function minWeightUnits(
    text: string | undefined,
  ): Promise<{ ok: true; value: string | undefined } | { ok: false; error: DisplayError }> {
    if (!text?.trim() || membership !== 'token-holders') return { ok: true, value: undefined };
    const ref = validateWith(tokenLookupInput, {
      chainId: token.chainId.trim(),
      address: token.address.trim(),
      standard: token.standard,
    });
    // the schema reports the token's own fields
    if (!ref.ok) return { ok: true, value: text.trim() };
    try {
      setConverting(true);
      const info = await queryClient.fetchQuery({
        ...trpc.governance.tokens.describe.queryOptions(ref.data),
        staleTime: 60_000,
        retry: false,
      });
      const units = toBaseUnits(text, info.decimals);
      if (units.ok) return units;
      return {
        ok: false,
        error: {
          message: 'Please correct the highlighted fields.',
          fields: { 'votingRules.minWeight': [units.message] },
        },
      };
    } catch (err) {
      return { ok: false, error: governanceError(err) };
    } finally {
      setConverting(false);
    }
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    const minWeight = await minWeightUnits(v.minWeight);
    if (!minWeight.ok) return setError(minWeight.error);
    const checked = validateWith(createDaoInput, {
      name: v.name,
      description: v.description,
      ownerAddress: v.ownerAddress,
      votingRules: {
        threshold: numberOrUndefined(v.threshold),
        minVotingPeriod: numberOrUndefined(v.minVotingPeriod) ?? 0,
        // a token makes the DAO token-weighted (the API's default with a token)
        ...(hasToken
          ? {
              token: {
                chainId: numberOrUndefined(token.chainId),
                address: token.address.trim(),
                standard: token.standard,
              },
              membership,
              ...(minWeight.value !== undefined ? { minWeight: minWeight.value } : {}),
            }
          : { tokenWeighted: v.tokenWeighted === 'on', membership }),
        quorum: numberOrUndefined(v.quorum) ?? 0,
        resultsVisibility: v.resultsHidden === 'on' ? 'after-end' : 'live',
        allowVoteChange: v.allowVoteChange === 'on',
      },
    });
    if (!checked.ok) return setError(checked.error);
    setError(null);
    create.mutate(checked.data, {
      onSuccess: (dao) => {
        void queryClient.invalidateQueries({ queryKey: trpc.governance.daos.pathKey() });
        router.push(`/daos/${dao.daoId}`);
      },
      onError: (err) => setError(governanceError(err)),
    });
  }

  if (loading) return <p>Loading your account…</p>;
  if (!signedIn || !verified)
    return <NeedsAccount signedIn={signedIn} verified={verified} what="create a DAO" />;
  const f = error?.fields ?? {};
  return (
    <form onSubmit={onSubmit} noValidate className="stack narrow" aria-label="Create a DAO">
      <ErrorAlert error={error} />
      <Field label="Name" name="name" required maxLength={100} errors={f.name} />
      <TextAreaField
        label="Description"
        name="description"
        rows={4}
        maxLength={2000}
        errors={f.description}
      />
      <WalletSelect
        label="Owner address"
        name="ownerAddress"
        wallets={wallets}
        errors={f.ownerAddress}
        hint="The owner is the DAO's first member and manages members and status."
      />
      <fieldset className="stack">
        <legend>Voting rules</legend>
        <div className="row">
          <Field
            label="Threshold (%)"
            name="threshold"
            type="number"
            inputMode="decimal"
            min={1}
            max={100}
            step="any"
            defaultValue={50}
            required
            errors={f['votingRules.threshold']}
            hint={<span className="muted small">Share of decided weight a proposal needs, 1–100.</span>}
          />
          <Field
            label="Quorum (%)"
            name="quorum"
            type="number"
            inputMode="decimal"
            min={0}
            max={100}
            step="any"
            defaultValue={0}
            errors={f['votingRules.quorum']}
            hint={
              <span className="muted small">Share of the electorate's weight that must vote, 0–100.</span>
            }
          />
          <Field
            label="Minimum voting period (hours)"
            name="minVotingPeriod"
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            defaultValue={0}
            errors={f['votingRules.minVotingPeriod']}
          />
        </div>
        {hasToken ? (
          <p className="muted small" data-testid="token-weighted-note">
            Voting is weighted by the governance token below, read from the chain.
          </p>
        ) : (
          <div className="checkbox">
            <input type="checkbox" id="tokenWeighted" name="tokenWeighted" />
            <label htmlFor="tokenWeighted">
              Token-weighted voting (weight = member's token balance, set by the owner)
            </label>
          </div>
        )}
        <div className="checkbox">
          <input
            type="checkbox"
            id="resultsHidden"
            name="resultsHidden"
            aria-describedby="resultsHidden-help"
          />
          <label htmlFor="resultsHidden">Hide results until voting ends</label>
        </div>
        <p id="resultsHidden-help" className="muted small">
          While a proposal is open, everyone sees how many have voted but not what they chose, so early votes
          do not steer later ones.
        </p>
        <div className="checkbox">
          <input type="checkbox" id="allowVoteChange" name="allowVoteChange" />
          <label htmlFor="allowVoteChange">Let voters change their vote until voting ends</label>
        </div>
      </fieldset>
      <TokenSection
        draft={token}
        onDraft={(d) => {
          setToken(d);
          if (!wantsToken(d)) setMembership('members');
        }}
        membership={membership}
        onMembership={setMembership}
        errors={f}
      />
      {wallets.length > 0 && (
        <button type="submit" disabled={create.isPending || converting}>
          {create.isPending ? 'Creating…' : 'Create DAO'}
        </button>
      )}
    </form>
  );
}
