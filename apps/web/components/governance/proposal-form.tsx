'use client';
import { createProposalInput, DEFAULT_VOTING_OPTIONS } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { type FormEvent, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { formValues } from '../../lib/form';
import { governanceError } from '../../lib/governance/errors';
import { formatHours } from '../../lib/governance/format';
import { checkProposalJson } from '../../lib/governance/proposal-data';
import type { VotingSystem } from '../../lib/governance/systems';
import { previewTimeline } from '../../lib/governance/timeline-preview';
import type { Dao } from '../../lib/governance/types';
import { useNow } from '../../lib/governance/use-now';
import { localToIso, numberOrUndefined, validateWith } from '../../lib/governance/validate';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { Field } from '../field';
import { Button } from '../ui/button';
import { DescriptionEditor } from './description-editor';
import { JsonEditor } from './json-editor';
import { OptionsEditor } from './options-editor';
import { ProposalTimeline } from './proposal-timeline';
import { VotingSystemField } from './voting-system-field';
import { WalletSelect } from './wallet-select';

/**
 * New proposal, by one of my wallets that is a member; validated with the API's schema first. The main
 * column has the title, the description (write / preview), the options and the JSON data; the side
 * column the duration, the optional start and a live timeline preview from the DAO's minimum period.
 */
export function ProposalForm({ dao, memberWallets }: { dao: Dao; memberWallets: string[] }) {
  const t = useTranslations('governance.newProposal');
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [options, setOptions] = useState<string[]>([...DEFAULT_VOTING_OPTIONS]);
  const [system, setSystem] = useState<VotingSystem>('single-choice');
  const basic = system === 'basic';
  const [data, setData] = useState('');
  const [description, setDescription] = useState('');
  const [duration, setDuration] = useState(String(Math.max(24, dao.votingRules.minVotingPeriod)));
  const [start, setStart] = useState('');
  const now = useNow();
  const timeline = now ? previewTimeline({ now, start, durationHours: duration }) : null;
  const [error, setError] = useState<DisplayError | null>(null);
  const create = useMutation(trpc.governance.proposals.create.mutationOptions());
  const minHours = dao.votingRules.minVotingPeriod;

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    const json = checkProposalJson(data);
    const hours = numberOrUndefined(v.votingDurationHours);
    const checked = validateWith(createProposalInput, {
      daoId: dao.daoId,
      title: v.title,
      description,
      creatorAddress: v.creatorAddress,
      votingDurationHours: hours,
      // basic votes For, Against, Abstain: the API fixes them when votingOptions is left out
      ...(basic ? {} : { votingOptions: options }),
      votingSystem: system,
      proposalData: json.ok ? json.value : {},
      ...(v.startTime ? { startTime: localToIso(v.startTime) } : {}),
    });
    const fields = checked.ok ? {} : { ...checked.error.fields };
    if (!json.ok) fields.proposalData = [json.message];
    if (hours !== undefined && hours < minHours)
      fields.votingDurationHours = [
        `must be at least the DAO's minimum voting period (${formatHours(minHours)})`,
      ];
    if (v.startTime && Date.parse(v.startTime) <= Date.now()) fields.startTime = ['must be in the future'];
    if (!checked.ok || Object.keys(fields).length)
      return setError({ message: 'Please correct the highlighted fields.', fields });
    setError(null);
    const { votingOptions, ...rest } = checked.data;
    create.mutate(basic ? rest : { ...rest, votingOptions }, {
      onSuccess: (p) => {
        void queryClient.invalidateQueries({ queryKey: trpc.governance.proposals.pathKey() });
        void queryClient.invalidateQueries({
          queryKey: trpc.governance.daos.get.queryKey({ daoId: dao.daoId }),
        });
        router.push(`/proposals/${p.proposalId}`);
      },
      onError: (err) => setError(governanceError(err)),
    });
  }

  const f = error?.fields ?? {};
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]"
      aria-label="New proposal"
    >
      <div className="flex min-w-0 flex-col gap-4">
        <ErrorAlert error={error} />
        <Field label="Title" name="title" required maxLength={200} errors={f.title} />
        <DescriptionEditor value={description} onChange={setDescription} errors={f.description} />
        <WalletSelect
          label="Submit as"
          name="creatorAddress"
          wallets={memberWallets}
          errors={f.creatorAddress}
          hint="One of your wallets that is a member of this DAO."
        />
        <VotingSystemField value={system} onChange={setSystem} errors={f.votingSystem} />
        {basic ? (
          <p className="text-sm text-muted-foreground" data-testid="basic-options">
            A basic proposal's options are fixed: For, Against and Abstain. Abstain counts toward turnout and
            quorum but not toward the decision.
          </p>
        ) : (
          <OptionsEditor options={options} onChange={setOptions} errors={f} />
        )}
        <JsonEditor value={data} onChange={setData} errors={f.proposalData} />
      </div>
      <aside
        className="flex min-w-0 flex-col gap-4 lg:sticky lg:top-4 lg:self-start"
        aria-label={t('period')}
      >
        <Field
          label="Voting duration (hours)"
          name="votingDurationHours"
          type="number"
          inputMode="decimal"
          min={Math.max(minHours, 1 / 3600)}
          max={8760}
          step="any"
          value={duration}
          onChange={(e) => setDuration(e.target.value)}
          required
          errors={f.votingDurationHours}
          hint={
            <span className="text-xs text-muted-foreground">
              At least {formatHours(minHours)}, at most 8,760.
            </span>
          }
        />
        <Field
          label="Start time (optional)"
          name="startTime"
          type="datetime-local"
          value={start}
          onChange={(e) => setStart(e.target.value)}
          errors={f.startTime}
          hint={
            <span className="text-xs text-muted-foreground">
              Empty: voting opens at once. Your local time.
            </span>
          }
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
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Submitting…' : 'Submit proposal'}
        </Button>
      </aside>
    </form>
  );
}
