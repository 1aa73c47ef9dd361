'use client';
import { tokenLookupInput } from '@plenum/validators';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { governanceError } from '../../lib/governance/errors';
import { chainName, STANDARDS, type TokenStandard } from '../../lib/governance/token';
import { validateWith } from '../../lib/governance/validate';
import { useTRPC } from '../../lib/trpc';
import { Field } from '../field';

export interface TokenDraft {
  chainId: string;
  address: string;
  standard: TokenStandard;
}
export type Membership = 'members' | 'token-holders';

export const emptyTokenDraft: TokenDraft = { chainId: '', address: '', standard: 'erc20' };
/** a token is meant as soon as a chain or an address is typed */
export const wantsToken = (d: TokenDraft) => d.chainId.trim() !== '' || d.address.trim() !== '';

interface LookupKey {
  chainId: number;
  address: string;
  standard: TokenStandard;
}
const sameKey = (a: LookupKey | null, d: TokenDraft) =>
  !!a &&
  String(a.chainId) === d.chainId.trim() &&
  a.address.toLowerCase() === d.address.trim().toLowerCase() &&
  a.standard === d.standard;

/**
 * The DAO form's optional governance token: chain, address and standard, looked up over the API
 * (governance.tokens.describe) to show its symbol and decimals before the DAO is created; who votes
 * (the member list, or anyone holding the token) and, for holders, the minimum in whole tokens.
 */
export function TokenSection({
  draft,
  onDraft,
  membership,
  onMembership,
  errors,
}: {
  draft: TokenDraft;
  onDraft: (d: TokenDraft) => void;
  membership: Membership;
  onMembership: (m: Membership) => void;
  errors: Record<string, string[]>;
}) {
  const trpc = useTRPC();
  const id = useId();
  const [lookup, setLookup] = useState<LookupKey | null>(null);
  const [lookupErrors, setLookupErrors] = useState<Record<string, string[]>>({});
  const info = useQuery({
    ...trpc.governance.tokens.describe.queryOptions(
      lookup ?? { chainId: 1, address: '0x0000000000000000000000000000000000000000', standard: 'erc20' },
    ),
    enabled: lookup !== null,
    retry: false,
    staleTime: 60_000,
  });
  const current = sameKey(lookup, draft);
  const hasToken = wantsToken(draft);

  function lookUp() {
    const checked = validateWith(tokenLookupInput, {
      chainId: draft.chainId.trim(),
      address: draft.address.trim(),
      standard: draft.standard,
    });
    if (!checked.ok) {
      setLookup(null);
      return setLookupErrors(checked.error.fields);
    }
    setLookupErrors({});
    setLookup(checked.data);
    if (sameKey(lookup, draft)) void info.refetch();
  }

  const set = (patch: Partial<TokenDraft>) => onDraft({ ...draft, ...patch });
  const fieldErrors = (name: 'chainId' | 'address' | 'standard') => {
    const list = [...(lookupErrors[name] ?? []), ...(errors[`votingRules.token.${name}`] ?? [])];
    return list.length ? list : undefined;
  };
  const lookupError = current && info.isError ? governanceError(info.error) : null;

  return (
    <fieldset className="stack token-section" data-testid="token-section">
      <legend>Governance token (optional)</legend>
      <p className="muted small">
        With a token, each member's weight is read from the chain at the block where a proposal's voting
        starts (the snapshot block), instead of balances set by the owner.
      </p>
      <div className="row">
        <Field
          label="Chain ID"
          name="tokenChainId"
          inputMode="numeric"
          placeholder="1"
          autoComplete="off"
          value={draft.chainId}
          onChange={(e) => set({ chainId: e.target.value })}
          errors={fieldErrors('chainId')}
        />
        <Field
          label="Token address"
          name="tokenAddress"
          placeholder="0x…"
          autoComplete="off"
          spellCheck={false}
          value={draft.address}
          onChange={(e) => set({ address: e.target.value })}
          errors={fieldErrors('address')}
        />
      </div>
      <fieldset className="stack">
        <legend>Token standard</legend>
        {STANDARDS.map((s) => (
          <div key={s.value} className="system-choice">
            <input
              type="radio"
              id={`${id}-${s.value}`}
              name="tokenStandard"
              value={s.value}
              checked={draft.standard === s.value}
              aria-describedby={`${id}-${s.value}-hint`}
              onChange={() => set({ standard: s.value })}
            />
            <label htmlFor={`${id}-${s.value}`}>{s.label}</label>
            <span id={`${id}-${s.value}-hint`} className="muted small system-hint">
              {s.hint}
            </span>
          </div>
        ))}
        {fieldErrors('standard') && <p className="field-errors">{fieldErrors('standard')?.join(' ')}</p>}
      </fieldset>
      <div className="token-lookup-row">
        <button
          type="button"
          className="secondary"
          onClick={lookUp}
          disabled={!hasToken || (current && info.isFetching)}
        >
          {current && info.isFetching ? 'Looking up…' : 'Look up'}
        </button>
        <div aria-live="polite" className="token-lookup-result">
          {current && info.data && (
            <p
              className="ok token-found"
              data-testid="token-info"
              data-symbol={info.data.symbol}
              data-decimals={info.data.decimals}
            >
              Found <strong>{info.data.symbol}</strong> · {info.data.decimals} decimals on{' '}
              {chainName(info.data.chainId)}
            </p>
          )}
          {lookupError && (
            <p className="field-errors token-found" data-testid="token-lookup-error">
              {lookupError.message}
            </p>
          )}
        </div>
      </div>
      <fieldset className="stack">
        <legend>Who votes</legend>
        <div className="system-choice">
          <input
            type="radio"
            id={`${id}-members`}
            name="membership"
            value="members"
            checked={membership === 'members'}
            aria-describedby={`${id}-members-hint`}
            onChange={() => onMembership('members')}
          />
          <label htmlFor={`${id}-members`}>Members</label>
          <span id={`${id}-members-hint`} className="muted small system-hint">
            The member list the owner keeps{hasToken ? ', each weighted by the token' : ''}.
          </span>
        </div>
        <div className="system-choice">
          <input
            type="radio"
            id={`${id}-holders`}
            name="membership"
            value="token-holders"
            checked={membership === 'token-holders'}
            disabled={!hasToken}
            aria-describedby={`${id}-holders-hint`}
            onChange={() => onMembership('token-holders')}
          />
          <label htmlFor={`${id}-holders`}>Anyone holding the token</label>
          <span id={`${id}-holders-hint`} className="muted small system-hint">
            Any wallet with at least the minimum at the snapshot block may vote without being added (needs a
            token).
          </span>
        </div>
        {errors['votingRules.membership'] && (
          <p className="field-errors">{errors['votingRules.membership'].join(' ')}</p>
        )}
        {membership === 'token-holders' && (
          <Field
            label="Minimum weight (tokens)"
            name="minWeight"
            inputMode="decimal"
            placeholder="any amount above 0"
            autoComplete="off"
            errors={errors['votingRules.minWeight']}
            hint={
              <span className="muted small">
                In whole tokens (e.g. 10 or 2.5); empty lets any holder with more than 0 vote.
              </span>
            }
          />
        )}
      </fieldset>
    </fieldset>
  );
}
