'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { useStatementOf } from '../../lib/delegation/use-statement-of';
import type { DisplayError } from '../../lib/errors';
import { useNumberFormat } from '../../lib/i18n/use-format';
import { useTRPC } from '../../lib/trpc';
import { TextAreaField } from '../governance/controls';
import { useGovernanceError } from '../governance/use-governance-error';
import { WalletSelect } from '../governance/wallet-select';
import { Button } from '../ui/button';
import { FormError } from '../ui/form';

/** the API's limit (MAX_DELEGATE_STATEMENT in @plenum/validators), kept here so the page needs no zod */
const MAX = 10_000;

/**
 * My delegate statement (docs/governance.md, "Delegate statements"): markdown, a live character count up
 * to 10,000, saved for one of my wallets (any wallet may stand as a delegate); saved empty, it is deleted.
 */
export function StatementForm({ daoId, wallets }: { daoId: string; wallets: string[] }) {
  const t = useTranslations('delegation.statement');
  const { n } = useNumberFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const governanceError = useGovernanceError();
  const [address, setAddress] = useState(wallets[0]);
  const current = useStatementOf(daoId, address);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<DisplayError | null>(null);
  const save = useMutation(trpc.governance.delegates.setStatement.mutationOptions());
  const value = text ?? current.data ?? '';
  const length = value.trim().length;

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!address) return;
    if (length > MAX) return setError({ message: t('tooLong', { max: n(MAX) }), fields: {} });
    setError(null);
    save.mutate(
      { daoId, address, statement: value },
      {
        onSuccess: (saved) => {
          toast.success(saved.statement ? t('saved') : t('deleted'));
          setOpen(false);
          setText(null);
          void queryClient.invalidateQueries({ queryKey: trpc.governance.delegates.list.pathKey() });
        },
        onError: (err) => setError(governanceError(err)),
      },
    );
  }

  return (
    <section aria-labelledby="statement-heading" className="flex flex-col gap-3" data-testid="my-statement">
      <h2 id="statement-heading" className="text-lg font-semibold">
        {t('heading')}
      </h2>
      <p className="text-sm text-muted-foreground">{t('intro')}</p>
      {!open && (
        <Button variant="outline" className="self-start" onClick={() => setOpen(true)}>
          {current.data ? t('edit') : t('write')}
        </Button>
      )}
      {open && (
        <form
          onSubmit={onSubmit}
          noValidate
          className="flex max-w-2xl flex-col gap-3"
          aria-label={t('heading')}
        >
          <FormError error={error} />
          {wallets.length > 1 && (
            <WalletSelect
              label={t('as')}
              name="address"
              wallets={wallets}
              value={address}
              onChange={(e) => {
                setAddress(e.target.value);
                setText(null);
              }}
            />
          )}
          <TextAreaField
            label={t('label')}
            name="statement"
            rows={8}
            value={value}
            onChange={(e) => setText(e.target.value)}
            hint={t('emptyDeletes')}
            errors={error?.fields.statement}
            aria-invalid={length > MAX || undefined}
          />
          <p
            className={length > MAX ? 'text-sm text-destructive' : 'text-sm text-muted-foreground'}
            aria-live="polite"
            data-testid="statement-count"
          >
            {t('count', { count: n(length), max: n(MAX) })}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={save.isPending || current.isPending}>
              {save.isPending ? t('saving') : t('save')}
            </Button>
            <Button
              type="button"
              variant="outline"
              onClick={() => {
                setOpen(false);
                setText(null);
                setError(null);
              }}
            >
              {t('cancel')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
