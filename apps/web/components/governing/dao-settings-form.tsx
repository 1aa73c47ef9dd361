'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { type FormEvent, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { formValues } from '../../lib/form';
import type { Dao } from '../../lib/governance/types';
import { numberOrUndefined } from '../../lib/governance/validate';
import { rulesPatch } from '../../lib/governing/rules-patch';
import { useTRPC } from '../../lib/trpc';
import { SelectField, TextAreaField } from '../governance/controls';
import { DelegationRule } from '../governance/delegation-rule';
import { useGovernanceError, useValidate } from '../governance/use-governance-error';
import { Notice } from '../ui/alert';
import { Button } from '../ui/button';
import { Field } from '../ui/field';
import { FormError } from '../ui/form';

/**
 * Name, description and voting rules of a DAO, by its owner or an admin (governance.settings.update). The
 * fields are the create form's (components/governance/create-dao-form.tsx); only what changed is sent.
 * New rules apply to proposals created after the change: a running vote keeps the rules it started with
 * (docs/governance.md, "Changing the rules").
 */
export function DaoSettingsForm({ dao, actorAddress }: { dao: Dao; actorAddress: string }) {
  const t = useTranslations('governing.settings');
  const tc = useTranslations('governance.createDao');
  const governanceError = useGovernanceError();
  const validate = useValidate();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(trpc.governance.settings.update.mutationOptions());
  const [error, setError] = useState<DisplayError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const r = dao.votingRules;
  const [proposers, setProposers] = useState(r.proposers);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    const checkbox = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.checked;
    const votingRules = rulesPatch(r, {
      threshold: numberOrUndefined(v.threshold),
      quorum: numberOrUndefined(v.quorum) ?? 0,
      minVotingPeriod: numberOrUndefined(v.minVotingPeriod) ?? 0,
      ...(r.token ? {} : { tokenWeighted: checkbox('tokenWeighted') ?? r.tokenWeighted }),
      resultsVisibility: checkbox('resultsHidden') ? 'after-end' : 'live',
      allowVoteChange: checkbox('allowVoteChange') ?? r.allowVoteChange,
      delegation: checkbox('delegation') ?? r.delegation,
      proposers,
      proposalThreshold: proposers === 'holders' ? v.proposalThreshold?.trim() || null : null,
      maxActiveProposalsPerAuthor: v.maxActive?.trim() ? Number(v.maxActive) : null,
    });
    const name = v.name ?? '';
    const description = v.description ?? '';
    const input = {
      daoId: dao.daoId,
      actorAddress,
      ...(name.trim() !== dao.name ? { name } : {}),
      ...(description !== dao.description ? { description } : {}),
      ...(votingRules ? { votingRules } : {}),
    };
    setNotice(null);
    if (Object.keys(input).length === 2) return setNotice(t('unchanged'));
    const { updateDaoInput } = await import('@plenum/validators');
    const checked = validate(updateDaoInput, input);
    if (!checked.ok) return setError(checked.error);
    setError(null);
    update.mutate(checked.data, {
      onSuccess: (updated) => {
        queryClient.setQueryData(trpc.governance.daos.get.queryKey({ daoId: dao.daoId }), updated);
        void queryClient.invalidateQueries({ queryKey: trpc.governance.settings.history.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.governance.daos.list.pathKey() });
        setNotice(t('saved'));
      },
      onError: (err) => setError(governanceError(err)),
    });
  }

  const f = error?.fields ?? {};
  const rule = (name: string) => f[`votingRules.${name}`];
  const number = { type: 'number', inputMode: 'decimal', step: 'any' } as const;
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="flex max-w-lg flex-col gap-4"
      aria-label={t('formLabel')}
      data-testid="settings-form"
    >
      <FormError error={error} />
      {notice && <Notice testId="settings-notice">{notice}</Notice>}
      <Field
        label={tc('name')}
        name="name"
        defaultValue={dao.name}
        maxLength={100}
        required
        errors={f.name}
      />
      <TextAreaField
        label={tc('description')}
        name="description"
        rows={4}
        maxLength={2000}
        defaultValue={dao.description}
        errors={f.description}
      />
      <fieldset className="flex min-w-0 flex-col gap-4">
        <legend className="font-semibold">{tc('rules')}</legend>
        <p
          className="rounded-md border border-amber-500/60 bg-amber-500/10 p-3 text-sm"
          data-testid="rules-apply-note"
        >
          {t('appliesNote')}
        </p>
        <div className="row">
          <Field
            label={tc('threshold')}
            name="threshold"
            {...number}
            min={1}
            max={100}
            required
            defaultValue={r.threshold}
            hint={tc('thresholdHint')}
            errors={rule('threshold')}
          />
          <Field
            label={tc('quorum')}
            name="quorum"
            {...number}
            min={0}
            max={100}
            defaultValue={r.quorum}
            hint={tc('quorumHint')}
            errors={rule('quorum')}
          />
          <Field
            label={tc('minPeriod')}
            name="minVotingPeriod"
            {...number}
            min={0}
            defaultValue={r.minVotingPeriod}
            errors={rule('minVotingPeriod')}
          />
        </div>
        {r.token ? (
          <p className="text-sm text-muted-foreground">{tc('tokenNote')}</p>
        ) : (
          <div className="checkbox">
            <input type="checkbox" id="tokenWeighted" name="tokenWeighted" defaultChecked={r.tokenWeighted} />
            <label htmlFor="tokenWeighted">{tc('tokenWeighted')}</label>
          </div>
        )}
        <div className="checkbox">
          <input
            type="checkbox"
            id="resultsHidden"
            name="resultsHidden"
            defaultChecked={r.resultsVisibility === 'after-end'}
          />
          <label htmlFor="resultsHidden">{tc('resultsHidden')}</label>
        </div>
        <div className="checkbox">
          <input
            type="checkbox"
            id="allowVoteChange"
            name="allowVoteChange"
            defaultChecked={r.allowVoteChange}
          />
          <label htmlFor="allowVoteChange">{tc('allowVoteChange')}</label>
        </div>
        <DelegationRule chain={r.token?.standard === 'erc20-votes'} defaultChecked={r.delegation} />
        <SelectField
          label={t('proposers')}
          name="proposers"
          value={proposers}
          onChange={(e) => setProposers(e.target.value as typeof proposers)}
          errors={rule('proposers')}
          hint={t(`proposersHint.${proposers}`)}
        >
          <option value="members">{t('proposersOption.members')}</option>
          <option value="authors">{t('proposersOption.authors')}</option>
          {r.token && <option value="holders">{t('proposersOption.holders')}</option>}
        </SelectField>
        {proposers === 'holders' && (
          <Field
            label={t('proposalThreshold')}
            name="proposalThreshold"
            inputMode="numeric"
            defaultValue={r.proposalThreshold ?? ''}
            hint={t('proposalThresholdHint')}
            errors={rule('proposalThreshold')}
          />
        )}
        <Field
          label={t('maxActive')}
          name="maxActive"
          type="number"
          inputMode="numeric"
          min={1}
          max={1000}
          step={1}
          defaultValue={r.maxActiveProposalsPerAuthor ?? ''}
          hint={t('maxActiveHint')}
          errors={rule('maxActiveProposalsPerAuthor')}
        />
      </fieldset>
      <Button type="submit" className="self-start" disabled={update.isPending}>
        {update.isPending ? t('saving') : t('save')}
      </Button>
    </form>
  );
}
