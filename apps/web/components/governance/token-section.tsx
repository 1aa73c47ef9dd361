'use client';
import { tokenLookupInput } from '@plenum/validators';
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { type InputHTMLAttributes, type Ref, useId, useState } from 'react';
import { STANDARDS, type TokenStandard } from '../../lib/governance/token';
import { useTRPC } from '../../lib/trpc';
import { Button } from '../ui/button';
import { Field, FieldErrors } from '../ui/field';
import { useChainName } from './dao-overview';
import { useGovernanceError, useValidate } from './use-governance-error';
import { CHOICE_INPUT, CHOICE_ROW } from './voting-system-field';

const HINT = 'col-start-2 text-sm text-muted-foreground';
const FIELDSET = 'flex min-w-0 flex-col gap-3';
const LEGEND = 'font-semibold';

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
  minWeightField,
}: {
  /** the minimum's input, bound by the DAO form (react-hook-form's register) */
  minWeightField?: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };
  draft: TokenDraft;
  onDraft: (d: TokenDraft) => void;
  membership: Membership;
  onMembership: (m: Membership) => void;
  errors: Record<string, string[]>;
}) {
  const t = useTranslations('governance.token');
  const tr = useTranslations('governance.rules');
  const chainName = useChainName();
  const governanceError = useGovernanceError();
  const validateWith = useValidate();
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
    <fieldset className={FIELDSET} data-testid="token-section">
      <legend className={LEGEND}>{t('legend')}</legend>
      <p className="text-sm text-muted-foreground">{t('intro')}</p>
      <div className="row">
        <Field
          label={t('chainId')}
          name="tokenChainId"
          inputMode="numeric"
          placeholder="1"
          autoComplete="off"
          value={draft.chainId}
          onChange={(e) => set({ chainId: e.target.value })}
          errors={fieldErrors('chainId')}
        />
        <Field
          label={t('address')}
          name="tokenAddress"
          placeholder="0x…"
          autoComplete="off"
          spellCheck={false}
          value={draft.address}
          onChange={(e) => set({ address: e.target.value })}
          errors={fieldErrors('address')}
        />
      </div>
      <fieldset className={FIELDSET}>
        <legend className={LEGEND}>{t('standard')}</legend>
        {STANDARDS.map((standard) => (
          <div key={standard} className={CHOICE_ROW}>
            <input
              type="radio"
              className={CHOICE_INPUT}
              id={`${id}-${standard}`}
              name="tokenStandard"
              value={standard}
              checked={draft.standard === standard}
              aria-describedby={`${id}-${standard}-hint`}
              onChange={() => set({ standard: standard })}
            />
            <label htmlFor={`${id}-${standard}`} className="font-semibold">
              {tr(`standards.${standard}.label`)}
            </label>
            <span id={`${id}-${standard}-hint`} className={HINT}>
              {tr(`standards.${standard}.hint`)}
            </span>
          </div>
        ))}
        <FieldErrors errors={fieldErrors('standard')} />
      </fieldset>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <Button variant="outline" onClick={lookUp} disabled={!hasToken || (current && info.isFetching)}>
          {current && info.isFetching ? t('lookingUp') : t('lookUp')}
        </Button>
        <div aria-live="polite" className="min-w-0 flex-[1_1_12rem] break-words">
          {current && info.data && (
            <p
              className="m-0 text-success"
              data-testid="token-info"
              data-symbol={info.data.symbol}
              data-decimals={info.data.decimals}
            >
              {t.rich('found', {
                symbol: info.data.symbol,
                decimals: info.data.decimals,
                chain: chainName(info.data.chainId),
                strong: (text) => <strong>{text}</strong>,
              })}
            </p>
          )}
          {lookupError && (
            <p className="m-0 text-sm text-destructive" data-testid="token-lookup-error">
              {lookupError.message}
            </p>
          )}
        </div>
      </div>
      <fieldset className={FIELDSET}>
        <legend className={LEGEND}>{t('whoVotes')}</legend>
        <div className={CHOICE_ROW}>
          <input
            type="radio"
            className={CHOICE_INPUT}
            id={`${id}-members`}
            name="membership"
            value="members"
            checked={membership === 'members'}
            aria-describedby={`${id}-members-hint`}
            onChange={() => onMembership('members')}
          />
          <label htmlFor={`${id}-members`} className="font-semibold">
            {t('members')}
          </label>
          <span id={`${id}-members-hint`} className={HINT}>
            {hasToken ? t('membersHintToken') : t('membersHint')}
          </span>
        </div>
        <div className={CHOICE_ROW}>
          <input
            type="radio"
            className={CHOICE_INPUT}
            id={`${id}-holders`}
            name="membership"
            value="token-holders"
            checked={membership === 'token-holders'}
            disabled={!hasToken}
            aria-describedby={`${id}-holders-hint`}
            onChange={() => onMembership('token-holders')}
          />
          <label htmlFor={`${id}-holders`} className="font-semibold">
            {t('holders')}
          </label>
          <span id={`${id}-holders-hint`} className={HINT}>
            {t('holdersHint')}
          </span>
        </div>
        <FieldErrors errors={errors['votingRules.membership']} />
        {membership === 'token-holders' && (
          <Field
            label={t('minWeight')}
            name="minWeight"
            {...minWeightField}
            inputMode="decimal"
            placeholder={t('minWeightPlaceholder')}
            autoComplete="off"
            errors={errors['votingRules.minWeight']}
            hint={t('minWeightHint')}
          />
        )}
      </fieldset>
    </fieldset>
  );
}
