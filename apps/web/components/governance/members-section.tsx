'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
import { type FormEvent, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { formValues } from '../../lib/form';
import { formatWeight } from '../../lib/governance/format';
import { membersInput } from '../../lib/governance/page-reads';
import { type Dao, type Member, sameAddress } from '../../lib/governance/types';
import { useTRPC } from '../../lib/trpc';
import { BulkMembers } from '../governing/bulk-members';
import { Address } from '../ui/address';
import { Notice } from '../ui/alert';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Field } from '../ui/field';
import { FormError } from '../ui/form';
import { ErrorRetry } from '../ui/query-state';
import { Pager } from './controls';
import { useGovernanceError, useValidate } from './use-governance-error';

/** an input and its button on one line, wrapping on narrow screens */
const INLINE_FORM = 'flex flex-wrap items-end gap-2 *:data-[slot=form-item]:flex-[1_1_14rem]';

/**
 * Members with balances; the owner and admins add (one or a pasted list) and remove members and set balances (token-weighted DAOs with
 * manual balances; a DAO with a governance token reads them from the chain, so there is no editor).
 */
export function MembersSection({ dao, actorAddress }: { dao: Dao; actorAddress: string | undefined }) {
  // the owner or an admin (governance.permissions.get): the wallet they act through
  const isOwner = actorAddress !== undefined;
  const t = useTranslations('governance.members');
  const locale = useLocale();
  const governanceError = useGovernanceError();
  const validateWith = useValidate();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [error, setError] = useState<DisplayError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const members = useQuery({
    ...trpc.governance.members.list.queryOptions(membersInput(dao.daoId, page)),
    placeholderData: keepPreviousData,
  });
  const add = useMutation(trpc.governance.members.add.mutationOptions());
  const remove = useMutation(trpc.governance.members.remove.mutationOptions());

  const refresh = () => {
    void queryClient.invalidateQueries({
      queryKey: trpc.governance.members.list.queryKey({ daoId: dao.daoId }),
    });
    void queryClient.invalidateQueries({ queryKey: trpc.governance.daos.get.queryKey({ daoId: dao.daoId }) });
  };

  async function onAdd(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const memberAddress = formValues(form).memberAddress?.trim();
    // the schemas (zod) load on the owner's first use: visitors of the DAO page never need them
    const { addMemberInput } = await import('@plenum/validators');
    const checked = validateWith(addMemberInput, { daoId: dao.daoId, memberAddress, actorAddress });
    if (!checked.ok) return setError(checked.error);
    setError(null);
    setNotice(null);
    add.mutate(checked.data, {
      onSuccess: (m) => {
        form.reset();
        setNotice(t('added', { address: m.memberAddress, count: m.memberCount }));
        refresh();
      },
      onError: (err) => setError(governanceError(err)),
    });
  }

  // removal asks first: it takes the member's votes on the open proposals away too
  const [removing, setRemoving] = useState<Member | null>(null);
  const active = useQuery({
    ...trpc.governance.proposals.activeByDao.queryOptions({ daoId: dao.daoId, limit: 1 }),
    enabled: removing !== null,
  });
  const openCount = active.data?.pagination.total;

  async function onRemove(member: Member) {
    setError(null);
    setNotice(null);
    try {
      await remove.mutateAsync({ daoId: dao.daoId, memberAddress: member.memberAddress, actorAddress });
    } catch (err) {
      throw new Error(governanceError(err).message);
    }
    setNotice(t('removed', { address: member.memberAddress }));
    refresh();
  }

  const data = members.data;
  const fromChain = dao.votingRules.token !== null;
  const manualBalances = dao.votingRules.tokenWeighted && !fromChain;
  return (
    <section aria-labelledby="members-heading" className="flex flex-col gap-4">
      <h2 id="members-heading">{t('heading', { count: dao.memberCount })}</h2>
      {notice && <Notice testId="members-notice">{notice}</Notice>}
      {fromChain && dao.votingRules.token && (
        <p className="text-sm text-muted-foreground" data-testid="members-from-chain">
          {t('fromChain', { symbol: dao.votingRules.token.symbol })}
        </p>
      )}
      <FormError error={error} />
      {isOwner && dao.status === 'ACTIVE' && (
        <form onSubmit={onAdd} noValidate className={INLINE_FORM} aria-label={t('addForm')}>
          <Field
            label={t('newAddress')}
            name="memberAddress"
            placeholder="0x…"
            autoComplete="off"
            spellCheck={false}
            errors={error?.fields.memberAddress}
          />
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? t('adding') : t('add')}
          </Button>
        </form>
      )}
      {isOwner && dao.status === 'ACTIVE' && (
        <BulkMembers daoId={dao.daoId} actorAddress={actorAddress} onAdded={refresh} />
      )}
      {members.isError && (
        <ErrorRetry
          error={members.error}
          retrying={members.isFetching}
          onRetry={() => void members.refetch()}
        />
      )}
      {data && (
        <ul className="flex flex-col gap-3" data-testid="members">
          {data.items.map((m) => (
            <li key={m.memberAddress} className="min-w-0 border-b pb-3">
              <Address address={m.memberAddress} />
              {sameAddress(m.memberAddress, dao.ownerAddress) && <span className="badge">{t('owner')}</span>}
              {manualBalances && (
                <span className="text-sm text-muted-foreground">
                  {' '}
                  {t('balance', { balance: formatWeight(m.tokenBalance, locale) })}
                </span>
              )}
              {isOwner && (
                <div className="mt-2 flex flex-wrap items-end gap-x-4 gap-y-2">
                  {manualBalances && (
                    <BalanceEditor
                      daoId={dao.daoId}
                      actorAddress={actorAddress}
                      member={m}
                      onSaved={refresh}
                      onError={setError}
                    />
                  )}
                  {!sameAddress(m.memberAddress, dao.ownerAddress) && (
                    <Button
                      variant="outline"
                      className="border-destructive text-destructive"
                      disabled={remove.isPending}
                      aria-label={t('removeAddress', { address: m.memberAddress })}
                      onClick={() => setRemoving(m)}
                    >
                      {t('remove')}
                    </Button>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {data && (
        <Pager label={t('pages')} page={page} totalPages={data.pagination.totalPages} onPage={setPage} />
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        destructive
        title={t('confirmTitle')}
        description={
          <span data-testid="remove-consequences">
            {t('confirmText', {
              address: removing?.memberAddress ?? '',
              dao: dao.name,
              open: openCount ?? 0,
              known: openCount === undefined ? 'no' : 'yes',
            })}
          </span>
        }
        confirmLabel={t('confirm')}
        onConfirm={() => (removing ? onRemove(removing) : undefined)}
      />
    </section>
  );
}

function BalanceEditor({
  daoId,
  actorAddress,
  member,
  onSaved,
  onError,
}: {
  daoId: string;
  actorAddress: string | undefined;
  member: Member;
  onSaved: () => void;
  onError: (e: DisplayError | null) => void;
}) {
  const t = useTranslations('governance.members');
  const governanceError = useGovernanceError();
  const validateWith = useValidate();
  const trpc = useTRPC();
  const save = useMutation(trpc.governance.members.setBalance.mutationOptions());
  const [fieldError, setFieldError] = useState<string[] | undefined>();

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const tokenBalance = formValues(e.currentTarget).tokenBalance?.trim();
    const { setBalanceInput } = await import('@plenum/validators');
    const checked = validateWith(setBalanceInput, {
      daoId,
      memberAddress: member.memberAddress,
      tokenBalance,
      actorAddress,
    });
    if (!checked.ok) return setFieldError(checked.error.fields.tokenBalance ?? [checked.error.message]);
    setFieldError(undefined);
    save.mutate(checked.data, {
      onSuccess: () => {
        onError(null);
        onSaved();
      },
      onError: (err) => onError(governanceError(err)),
    });
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className={INLINE_FORM}
      aria-label={t('balanceOf', { address: member.memberAddress })}
    >
      <Field
        label={t('balanceLabel')}
        name="tokenBalance"
        inputMode="numeric"
        defaultValue={member.tokenBalance}
        errors={fieldError}
      />
      <Button type="submit" variant="outline" disabled={save.isPending}>
        {save.isPending ? t('saving') : t('save')}
      </Button>
    </form>
  );
}
