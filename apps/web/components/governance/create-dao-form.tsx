'use client';
import { createDaoInput, tokenLookupInput } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import type { DisplayError } from '../../lib/errors';
import { toBaseUnits } from '../../lib/governance/token';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { numberOrUndefined } from '../../lib/governance/validate';
import { useTRPC } from '../../lib/trpc';
import { Button } from '../ui/button';
import { Form, FormError, FormField, TextField, useZodForm } from '../ui/form';
import { TextAreaField } from './controls';
import { DelegationRule } from './delegation-rule';
import { emptyTokenDraft, type Membership, type TokenDraft, TokenSection, wantsToken } from './token-section';
import { useGovernanceError, useValidate } from './use-governance-error';
import { NeedsAccount, WalletSelect } from './wallet-select';

const api = createDaoInput.shape;

/**
 * The form's side of createDaoInput: the API's own name, description and owner schemas; the rules as the
 * strings and check marks the inputs hold. The whole API schema checks the converted values on submit.
 */
const daoForm = z.object({
  name: api.name,
  description: api.description,
  ownerAddress: api.ownerAddress,
  threshold: z.string(),
  quorum: z.string(),
  minVotingPeriod: z.string(),
  tokenWeighted: z.boolean(),
  resultsHidden: z.boolean(),
  allowVoteChange: z.boolean(),
  delegation: z.boolean(),
  minWeight: z.string(),
});
type DaoFormValues = z.output<typeof daoForm>;
const RULE_FIELDS = ['threshold', 'quorum', 'minVotingPeriod', 'tokenWeighted'] as const;

/** New DAO: name, description, owner wallet and voting rules (react-hook-form, the API's own schema). */
export function CreateDaoForm() {
  const t = useTranslations('governance.createDao');
  const tt = useTranslations('governance.token');
  const tc = useTranslations('governance.common');
  const tv = useTranslations('common.validation');
  const governanceError = useGovernanceError();
  const validate = useValidate();
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
  // an erc20-votes token delegates on the chain: no delegation of the DAO's own (DELEGATION_ON_CHAIN)
  const chainDelegation = hasToken && token.standard === 'erc20-votes';
  const form = useZodForm(daoForm, {
    defaultValues: {
      name: '',
      description: '',
      ownerAddress: wallets[0] ?? '',
      threshold: '50',
      quorum: '0',
      minVotingPeriod: '0',
      tokenWeighted: false,
      resultsHidden: false,
      allowVoteChange: false,
      delegation: false,
      minWeight: '',
    },
  });

  // the wallets arrive after the form's first render: the first one owns the DAO unless another is chosen
  const firstWallet = wallets[0];
  useEffect(() => {
    if (firstWallet && !form.getValues('ownerAddress')) form.setValue('ownerAddress', firstWallet);
  }, [firstWallet, form]);

  /** the minimum in whole tokens → base units, with the decimals the lookup finds (cached when looked up) */
  async function minWeightUnits(
    text: string,
  ): Promise<{ ok: true; value: string | undefined } | { ok: false; error: DisplayError }> {
    if (!text.trim() || membership !== 'token-holders') return { ok: true, value: undefined };
    const ref = validate(tokenLookupInput, {
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
      const message =
        units.problem === 'places' ? tt('tooManyPlaces', { decimals: info.decimals }) : tt('notAmount');
      return {
        ok: false,
        error: { message: tv('fixFields'), fields: { 'votingRules.minWeight': [message] } },
      };
    } catch (err) {
      return { ok: false, error: governanceError(err) };
    } finally {
      setConverting(false);
    }
  }

  /** the API's errors: rules onto their inputs, the token's and the membership's to TokenSection */
  function showErrors(shown: DisplayError) {
    for (const [path, messages] of Object.entries(shown.fields)) {
      const [root, rule] = path.split('.');
      const name = root === 'votingRules' ? RULE_FIELDS.find((f) => f === rule) : undefined;
      const field = name ?? (['name', 'description', 'ownerAddress'].includes(root ?? '') ? root : undefined);
      if (field) form.setError(field as keyof DaoFormValues, { type: 'server', message: messages.join(' ') });
    }
    setError(shown);
  }

  const onSubmit = form.handleSubmit(
    async (v) => {
      const minWeight = await minWeightUnits(v.minWeight);
      if (!minWeight.ok) return showErrors(minWeight.error);
      const checked = validate(createDaoInput, {
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
            : { tokenWeighted: v.tokenWeighted, membership }),
          quorum: numberOrUndefined(v.quorum) ?? 0,
          resultsVisibility: v.resultsHidden ? 'after-end' : 'live',
          allowVoteChange: v.allowVoteChange,
          ...(chainDelegation ? {} : { delegation: v.delegation }),
        },
      });
      if (!checked.ok) return showErrors(checked.error);
      setError(null);
      create.mutate(checked.data, {
        onSuccess: (dao) => {
          void queryClient.invalidateQueries({ queryKey: trpc.governance.daos.pathKey() });
          router.push(`/daos/${dao.daoId}`);
        },
        onError: (err) => showErrors(governanceError(err)),
      });
    },
    () => setError({ message: tv('fixFields'), fields: {} }),
  );

  if (loading) return <p>{tc('loadingAccount')}</p>;
  if (!signedIn || !verified)
    return <NeedsAccount signedIn={signedIn} verified={verified} what="createDao" />;
  const f = error?.fields ?? {};
  const errors = form.formState.errors;
  const number = { type: 'number', inputMode: 'decimal', step: 'any' } as const;
  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="flex max-w-lg flex-col gap-4" aria-label={t('title')}>
        <FormError error={error} />
        <TextField form={form} name="name" label={t('name')} required maxLength={100} />
        <TextAreaField
          label={t('description')}
          rows={4}
          maxLength={2000}
          errors={errors.description?.message ? [errors.description.message] : undefined}
          {...form.register('description')}
        />
        <FormField
          control={form.control}
          name="ownerAddress"
          render={({ field }) => (
            <WalletSelect
              label={t('owner')}
              name={field.name}
              wallets={wallets}
              errors={errors.ownerAddress?.message ? [errors.ownerAddress.message] : undefined}
              hint={t('ownerHint')}
              value={field.value}
              onChange={field.onChange}
            />
          )}
        />
        <fieldset className="flex min-w-0 flex-col gap-4">
          <legend className="font-semibold">{t('rules')}</legend>
          <div className="row">
            <TextField
              form={form}
              name="threshold"
              label={t('threshold')}
              {...number}
              min={1}
              max={100}
              required
              hint={t('thresholdHint')}
            />
            <TextField
              form={form}
              name="quorum"
              label={t('quorum')}
              {...number}
              min={0}
              max={100}
              hint={t('quorumHint')}
            />
            <TextField form={form} name="minVotingPeriod" label={t('minPeriod')} {...number} min={0} />
          </div>
          {hasToken ? (
            <p className="text-sm text-muted-foreground" data-testid="token-weighted-note">
              {t('tokenNote')}
            </p>
          ) : (
            <div className="checkbox">
              <input type="checkbox" id="tokenWeighted" {...form.register('tokenWeighted')} />
              <label htmlFor="tokenWeighted">{t('tokenWeighted')}</label>
            </div>
          )}
          <div className="checkbox">
            <input
              type="checkbox"
              id="resultsHidden"
              aria-describedby="resultsHidden-help"
              {...form.register('resultsHidden')}
            />
            <label htmlFor="resultsHidden">{t('resultsHidden')}</label>
          </div>
          <p id="resultsHidden-help" className="text-sm text-muted-foreground">
            {t('resultsHiddenHelp')}
          </p>
          <div className="checkbox">
            <input type="checkbox" id="allowVoteChange" {...form.register('allowVoteChange')} />
            <label htmlFor="allowVoteChange">{t('allowVoteChange')}</label>
          </div>
          <DelegationRule chain={chainDelegation} field={form.register('delegation')} />
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
          minWeightField={form.register('minWeight')}
        />
        {wallets.length > 0 && (
          <Button type="submit" className="self-start" disabled={create.isPending || converting}>
            {create.isPending ? t('creating') : t('create')}
          </Button>
        )}
      </form>
    </Form>
  );
}
