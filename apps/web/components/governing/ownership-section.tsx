'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { type FormEvent, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { formValues } from '../../lib/form';
import type { Dao } from '../../lib/governance/types';
import { useTRPC } from '../../lib/trpc';
import { useGovernanceError, useValidate } from '../governance/use-governance-error';
import { Address } from '../ui/address';
import { Notice } from '../ui/alert';
import { Button } from '../ui/button';
import { DateTime } from '../ui/date-time';
import { Field } from '../ui/field';
import { FormError } from '../ui/form';

/** the reads a change of owner touches */
export function useRefreshOwnership(daoId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.governance.daos.get.queryKey({ daoId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.governance.permissions.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.governance.roles.list.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.governance.settings.history.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.governance.members.list.pathKey() }),
    ]);
}

/**
 * Ownership in two steps (docs/governance.md, "Ownership"): the owner names the new owner's
 * address, which an account holding it accepts; until then the owner may withdraw. `actorAddress` is the
 * owner's wallet, set only for the owner.
 */
export function OwnershipSection({ dao, actorAddress }: { dao: Dao; actorAddress: string | undefined }) {
  const t = useTranslations('governing.ownership');
  const governanceError = useGovernanceError();
  const validate = useValidate();
  const trpc = useTRPC();
  const refresh = useRefreshOwnership(dao.daoId);
  const transfer = useMutation(trpc.governance.ownership.transfer.mutationOptions());
  const withdraw = useMutation(trpc.governance.ownership.withdraw.mutationOptions());
  const [error, setError] = useState<DisplayError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const pending = dao.pendingOwner;

  async function onTransfer(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const { transferOwnerInput } = await import('@plenum/validators');
    const checked = validate(transferOwnerInput, {
      daoId: dao.daoId,
      newOwnerAddress: formValues(form).newOwnerAddress?.trim(),
      actorAddress,
    });
    if (!checked.ok) return setError(checked.error);
    setError(null);
    setNotice(null);
    transfer.mutate(checked.data, {
      onSuccess: (sent) => {
        form.reset();
        setNotice(t('started', { address: sent.pendingOwner.address }));
        void refresh();
      },
      onError: (err) => setError(governanceError(err)),
    });
  }

  return (
    <section aria-labelledby="ownership-heading" className="flex flex-col gap-4" id="ownership">
      <h2 id="ownership-heading" className="text-lg font-semibold">
        {t('heading')}
      </h2>
      <p className="flex flex-wrap items-center gap-x-2 text-sm">
        {t('owner')} <Address address={dao.ownerAddress} />
      </p>
      {notice && <Notice testId="ownership-notice">{notice}</Notice>}
      <FormError error={error} />
      {pending ? (
        <div className="flex flex-col gap-2" data-testid="pending-transfer-settings">
          <p className="flex flex-wrap items-center gap-x-2 text-sm">
            {t('pendingTo')} <Address address={pending.address} />
            <span className="text-muted-foreground">
              ({t('since')} <DateTime value={pending.requestedAt} />)
            </span>
          </p>
          {actorAddress && (
            <Button
              variant="outline"
              className="self-start"
              disabled={withdraw.isPending}
              onClick={() =>
                withdraw.mutate(
                  { daoId: dao.daoId, actorAddress },
                  {
                    onSuccess: () => {
                      setError(null);
                      setNotice(t('withdrawn'));
                      void refresh();
                    },
                    onError: (err) => setError(governanceError(err)),
                  },
                )
              }
            >
              {t('withdraw')}
            </Button>
          )}
        </div>
      ) : null}
      {actorAddress && (
        <form onSubmit={onTransfer} noValidate className="flex flex-col gap-2" aria-label={t('transferForm')}>
          <div className="flex flex-wrap items-end gap-2 *:data-[slot=form-item]:flex-[1_1_14rem]">
            <Field
              label={t('newOwner')}
              name="newOwnerAddress"
              placeholder="0x…"
              autoComplete="off"
              spellCheck={false}
              errors={error?.fields.newOwnerAddress}
            />
            <Button type="submit" disabled={transfer.isPending}>
              {pending ? t('replace') : t('start')}
            </Button>
          </div>
          <p className="text-sm text-muted-foreground">{t('hint')}</p>
        </form>
      )}
    </section>
  );
}
