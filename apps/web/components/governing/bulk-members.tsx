'use client';
import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { type FormEvent, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { formValues } from '../../lib/form';
import { pastedAddresses } from '../../lib/governing/paste-addresses';
import { useTRPC } from '../../lib/trpc';
import { TextAreaField } from '../governance/controls';
import { useGovernanceError, useValidate } from '../governance/use-governance-error';
import { Button } from '../ui/button';
import { FormError } from '../ui/form';

type BulkResult = {
  added: string[];
  alreadyMembers: string[];
  invalid: { address: string; reason: 'INVALID_ADDRESS' | 'DUPLICATE' }[];
  memberCount: number;
};

/**
 * Members added from a pasted list (governance.members.bulk, up to 1,000 in one transaction): each
 * address is added, already a member, or invalid with the reason, and the page says which.
 */
export function BulkMembers({
  daoId,
  actorAddress,
  onAdded,
}: {
  daoId: string;
  actorAddress: string | undefined;
  onAdded: () => void;
}) {
  const t = useTranslations('governing.bulk');
  const governanceError = useGovernanceError();
  const validate = useValidate();
  const trpc = useTRPC();
  const bulk = useMutation(trpc.governance.members.bulk.mutationOptions());
  const [error, setError] = useState<DisplayError | null>(null);
  const [result, setResult] = useState<BulkResult | null>(null);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const addresses = pastedAddresses(formValues(form).addresses ?? '');
    setResult(null);
    if (addresses.length === 0) return setError({ message: t('empty'), fields: { addresses: [t('empty')] } });
    const { bulkMembersInput } = await import('@plenum/validators');
    const checked = validate(bulkMembersInput, { daoId, addresses, actorAddress });
    if (!checked.ok) return setError(checked.error);
    setError(null);
    bulk.mutate(checked.data, {
      onSuccess: (r) => {
        setResult(r);
        if (r.invalid.length === 0) form.reset();
        if (r.added.length > 0) onAdded();
      },
      onError: (err) => setError(governanceError(err)),
    });
  }

  return (
    <details className="rounded-md border p-3" data-testid="bulk-members">
      <summary className="cursor-pointer font-medium">{t('summary')}</summary>
      <form onSubmit={onSubmit} noValidate className="mt-3 flex flex-col gap-3" aria-label={t('form')}>
        <FormError error={error} />
        <TextAreaField
          label={t('label')}
          name="addresses"
          rows={5}
          spellCheck={false}
          autoComplete="off"
          placeholder={'0x…\n0x…'}
          hint={t('hint')}
          errors={error?.fields.addresses}
        />
        <Button type="submit" className="self-start" disabled={bulk.isPending}>
          {bulk.isPending ? t('adding') : t('submit')}
        </Button>
      </form>
      {result && <BulkOutcome result={result} />}
    </details>
  );
}

function BulkOutcome({ result }: { result: BulkResult }) {
  const t = useTranslations('governing.bulk');
  return (
    <div role="status" className="mt-3 flex flex-col gap-2 text-sm" data-testid="bulk-result">
      <p className="font-medium">
        {t('outcome', {
          added: result.added.length,
          already: result.alreadyMembers.length,
          invalid: result.invalid.length,
        })}
      </p>
      <Group title={t('added', { count: result.added.length })} testId="bulk-added" items={result.added} />
      <Group
        title={t('already', { count: result.alreadyMembers.length })}
        testId="bulk-already"
        items={result.alreadyMembers}
      />
      {result.invalid.length > 0 && (
        <div data-testid="bulk-invalid">
          <p>{t('invalid', { count: result.invalid.length })}</p>
          <ul className="list-disc pl-5">
            {result.invalid.map((i, n) => (
              <li key={`${i.address}-${n}`} className="break-all" data-reason={i.reason}>
                <span className="font-mono">{i.address || '""'}</span> — {t(`reasons.${i.reason}`)}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function Group({ title, items, testId }: { title: string; items: string[]; testId: string }) {
  if (items.length === 0) return null;
  return (
    <div data-testid={testId}>
      <p>{title}</p>
      <ul className="list-disc pl-5">
        {items.map((a) => (
          <li key={a} className="font-mono break-all">
            {a}
          </li>
        ))}
      </ul>
    </div>
  );
}
