'use client';
import { createProposalInput, DEFAULT_VOTING_OPTIONS, VOTING_SYSTEM_TRAITS } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import type { DisplayError } from '../../lib/errors';
import { formatHours } from '../../lib/governance/format';
import { checkProposalJson } from '../../lib/governance/proposal-data';
import type { VotingSystem } from '../../lib/governance/systems';
import { previewTimeline } from '../../lib/governance/timeline-preview';
import type { Dao, Proposal } from '../../lib/governance/types';
import { useNow } from '../../lib/governance/use-now';
import { localToIso, numberOrUndefined } from '../../lib/governance/validate';
import { durationHours, isoToLocal, proposalPatch } from '../../lib/governing/proposal-edit';
import { useTRPC } from '../../lib/trpc';
import { Button } from '../ui/button';
import { Form, FormError, FormField, setServerErrors, TextField, useZodForm } from '../ui/form';
import { DescriptionEditor } from './description-editor';
import { JsonEditor, useJsonMessage } from './json-editor';
import { OptionsEditor } from './options-editor';
import { ProposalTimeline } from './proposal-timeline';
import { useGovernanceError, useValidate } from './use-governance-error';
import { VotingSystemField } from './voting-system-field';
import { WalletSelect } from './wallet-select';

const api = createProposalInput.shape;

/**
 * The form's side of createProposalInput: the API's own title, description and creator schemas; the
 * numbers, the start and the JSON data as the strings the inputs hold. The whole API schema checks the
 * converted values on submit (toInput), so nothing is written twice.
 */
const proposalForm = z.object({
  title: api.title,
  description: api.description,
  creatorAddress: api.creatorAddress,
  votingSystem: api.votingSystem,
  votingOptions: z.array(z.string()),
  votingDurationHours: z.string(),
  startTime: z.string(),
  proposalData: z.string(),
});
type ProposalFormValues = z.output<typeof proposalForm>;

/** a system whose options are fixed (basic): the form shows them instead of the options editor */
const fixesOptions = (system: VotingSystem | undefined) =>
  system !== undefined && VOTING_SYSTEM_TRAITS[system].fixedOptions !== null;

/** the form's strings → the API's input (still to be checked with createProposalInput) */
function toInput(daoId: string, v: ProposalFormValues) {
  const json = checkProposalJson(v.proposalData);
  return {
    daoId,
    title: v.title,
    description: v.description,
    creatorAddress: v.creatorAddress,
    votingDurationHours: numberOrUndefined(v.votingDurationHours),
    // basic votes For, Against, Abstain: the API fixes them when votingOptions is left out
    ...(fixesOptions(v.votingSystem) ? {} : { votingOptions: v.votingOptions }),
    votingSystem: v.votingSystem,
    proposalData: json.ok ? json.value : {},
    ...(v.startTime ? { startTime: localToIso(v.startTime) } : {}),
  };
}

/**
 * New proposal, by one of my wallets that is a member (react-hook-form; checked with the API's schema
 * first). The main column has the title, the description (write / preview), the options and the JSON
 * data; the side column the duration, the optional start and a live timeline preview from the DAO's
 * minimum period. With `editing`, the same form changes a PENDING proposal: it opens with the proposal's
 * values and sends only what changed (governance.proposals.update) through `actorAddress`.
 */
export function ProposalForm({
  dao,
  memberWallets,
  editing,
}: {
  dao: Dao;
  memberWallets: string[];
  editing?: { proposal: Proposal; actorAddress: string };
}) {
  const t = useTranslations('governance.newProposal');
  const te = useTranslations('governing.edit');
  const tr = useTranslations('governance.rules');
  const tv = useTranslations('common.validation');
  const locale = useLocale();
  const jsonMessage = useJsonMessage();
  const validate = useValidate();
  const governanceError = useGovernanceError();
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const minHours = dao.votingRules.minVotingPeriod;
  const minText = formatHours(minHours, locale, tr('none'));

  // what only the form knows: the JSON text, the DAO's minimum period, a start in the future
  const schema = useMemo(
    () =>
      proposalForm.superRefine((v, ctx) => {
        const json = checkProposalJson(v.proposalData);
        if (!json.ok) ctx.addIssue({ code: 'custom', path: ['proposalData'], message: jsonMessage(json) });
        const hours = numberOrUndefined(v.votingDurationHours);
        if (hours !== undefined && hours < minHours)
          ctx.addIssue({
            code: 'custom',
            path: ['votingDurationHours'],
            message: t('belowMinPeriod', { period: minText }),
          });
        if (v.startTime && Date.parse(v.startTime) <= Date.now())
          ctx.addIssue({ code: 'custom', path: ['startTime'], message: t('future') });
      }),
    [jsonMessage, minHours, minText, t],
  );
  const p = editing?.proposal;
  const form = useZodForm(schema, {
    defaultValues: p
      ? {
          title: p.title,
          description: p.description,
          creatorAddress: p.creatorAddress,
          votingSystem: p.votingSystem,
          votingOptions: [...p.votingOptions],
          votingDurationHours: String(durationHours(p)),
          startTime: isoToLocal(p.startTime),
          proposalData: Object.keys(p.proposalData).length > 0 ? JSON.stringify(p.proposalData, null, 2) : '',
        }
      : {
          title: '',
          description: '',
          creatorAddress: memberWallets[0] ?? '',
          votingSystem: 'single-choice',
          votingOptions: [...DEFAULT_VOTING_OPTIONS],
          votingDurationHours: String(Math.max(24, minHours)),
          startTime: '',
          proposalData: '',
        },
  });
  const [error, setError] = useState<DisplayError | null>(null);
  const create = useMutation(trpc.governance.proposals.create.mutationOptions());
  const update = useMutation(trpc.governance.proposals.update.mutationOptions());
  const saving = create.isPending || update.isPending;
  const now = useNow();
  const [duration, start, system] = form.watch(['votingDurationHours', 'startTime', 'votingSystem']);
  const timeline = now ? previewTimeline({ now, start, durationHours: duration }) : null;

  const showErrors = (shown: DisplayError) => {
    setServerErrors(form, shown);
    setError(shown);
  };
  const onSubmit = form.handleSubmit(
    (values) => {
      // the API's own schema over the converted values: the same check the server makes
      const checked = validate(createProposalInput, toInput(dao.daoId, values));
      if (!checked.ok) return showErrors(checked.error);
      setError(null);
      if (editing) return save(editing, checked.data, values);
      const { votingOptions, ...rest } = checked.data;
      create.mutate(fixesOptions(values.votingSystem) ? rest : { ...rest, votingOptions }, {
        onSuccess: (p) => {
          void queryClient.invalidateQueries({ queryKey: trpc.governance.proposals.pathKey() });
          void queryClient.invalidateQueries({
            queryKey: trpc.governance.daos.get.queryKey({ daoId: dao.daoId }),
          });
          router.push(`/proposals/${p.proposalId}`);
        },
        onError: (err) => showErrors(governanceError(err)),
      });
    },
    () => setError({ message: tv('fixFields'), fields: {} }),
  );

  /** the edit's changes only (lib/governing/proposal-edit.ts), then back to the proposal */
  function save(
    edit: { proposal: Proposal; actorAddress: string },
    data: (typeof createProposalInput)['_output'],
    values: ProposalFormValues,
  ) {
    const patch = proposalPatch(
      edit.proposal,
      {
        ...data,
        votingOptions: fixesOptions(values.votingSystem) ? undefined : data.votingOptions,
        startLocal: values.startTime,
      },
      localToIso,
    );
    if (!patch) return setError({ message: te('unchanged'), fields: {} });
    const proposalId = edit.proposal.proposalId;
    update.mutate(
      { proposalId, actorAddress: edit.actorAddress, ...patch },
      {
        onSuccess: () => {
          void queryClient.invalidateQueries({ queryKey: trpc.governance.proposals.pathKey() });
          void queryClient.invalidateQueries({ queryKey: trpc.governance.votes.pathKey() });
          router.push(`/proposals/${proposalId}`);
        },
        onError: (err) => showErrors(governanceError(err)),
      },
    );
  }

  const errors = form.formState.errors;
  const messages = (e: { message?: string } | undefined) => (e?.message ? [e.message] : undefined);
  /** the options' errors keyed as OptionsEditor reads them: votingOptions and votingOptions.<i> */
  const optionErrors: Record<string, string[]> = {};
  const general = messages(errors.votingOptions?.root ?? (errors.votingOptions as { message?: string }));
  if (general) optionErrors.votingOptions = general;
  if (Array.isArray(errors.votingOptions))
    errors.votingOptions.forEach((e, i) => {
      const m = messages(e);
      if (m) optionErrors[`votingOptions.${i}`] = m;
    });

  return (
    <Form {...form}>
      <form
        onSubmit={onSubmit}
        noValidate
        className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]"
        aria-label={editing ? te('title') : t('title')}
      >
        <div className="flex min-w-0 flex-col gap-4">
          <FormError error={error} />
          <TextField form={form} name="title" label={t('titleLabel')} required maxLength={200} />
          <FormField
            control={form.control}
            name="description"
            render={({ field }) => (
              <DescriptionEditor
                value={field.value ?? ''}
                onChange={field.onChange}
                errors={messages(errors.description)}
              />
            )}
          />
          {!editing && (
            <FormField
              control={form.control}
              name="creatorAddress"
              render={({ field }) => (
                <WalletSelect
                  label={t('submitAs')}
                  name={field.name}
                  wallets={memberWallets}
                  errors={messages(errors.creatorAddress)}
                  hint={t('submitAsHint')}
                  value={field.value}
                  onChange={field.onChange}
                />
              )}
            />
          )}
          <FormField
            control={form.control}
            name="votingSystem"
            render={({ field }) => (
              <VotingSystemField
                value={(field.value ?? 'single-choice') as VotingSystem}
                onChange={field.onChange}
                errors={messages(errors.votingSystem)}
              />
            )}
          />
          {fixesOptions(system) ? (
            <p className="text-sm text-muted-foreground" data-testid="basic-options">
              {t('basicOptions')}
            </p>
          ) : (
            <FormField
              control={form.control}
              name="votingOptions"
              render={({ field }) => (
                <OptionsEditor options={field.value} onChange={field.onChange} errors={optionErrors} />
              )}
            />
          )}
          <FormField
            control={form.control}
            name="proposalData"
            render={({ field }) => (
              <JsonEditor
                value={field.value}
                onChange={field.onChange}
                errors={messages(errors.proposalData)}
              />
            )}
          />
        </div>
        <aside
          className="flex min-w-0 flex-col gap-4 lg:sticky lg:top-4 lg:self-start"
          aria-label={t('period')}
        >
          <TextField
            form={form}
            name="votingDurationHours"
            label={t('duration')}
            type="number"
            inputMode="decimal"
            min={Math.max(minHours, 1 / 3600)}
            max={8760}
            step="any"
            required
            hint={
              <span className="text-xs">
                {/* no minimum: "At most …" alone, never "At least none" */}
                {minHours > 0 ? t('durationHint', { min: minText }) : t('durationHintMax')}
              </span>
            }
          />
          <TextField
            form={form}
            name="startTime"
            label={t('start')}
            type="datetime-local"
            hint={<span className="text-xs">{t('startHint')}</span>}
          />
          <section
            aria-labelledby="preview-heading"
            className="flex flex-col gap-2 rounded-lg border bg-card p-4"
          >
            <h2 id="preview-heading" className="text-sm font-semibold">
              {t('preview')}
            </h2>
            {timeline ? (
              <ProposalTimeline {...timeline} preview testId="timeline-preview" />
            ) : (
              <p className="text-sm text-muted-foreground">{t('previewEmpty')}</p>
            )}
          </section>
          <Button type="submit" disabled={saving}>
            {editing
              ? update.isPending
                ? te('saving')
                : te('save')
              : create.isPending
                ? t('submitting')
                : t('submit')}
          </Button>
        </aside>
      </form>
    </Form>
  );
}
