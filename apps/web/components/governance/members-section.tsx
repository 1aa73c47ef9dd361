'use client';
import { addMemberInput, setBalanceInput } from '@plenum/validators';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { formValues } from '../../lib/form';
import { governanceError } from '../../lib/governance/errors';
import { formatWeight } from '../../lib/governance/format';
import { type Dao, type Member, sameAddress } from '../../lib/governance/types';
import { validateWith } from '../../lib/governance/validate';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert, Notice } from '../alert';
import { Field } from '../field';
import { Address } from '../ui/address';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Pager } from './controls';

const PAGE_SIZE = 20;

/**
 * Members with balances; the owner adds and removes members and sets balances (token-weighted DAOs with
 * manual balances; a DAO with a governance token reads them from the chain, so there is no editor).
 */
export function MembersSection({ dao, isOwner }: { dao: Dao; isOwner: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [error, setError] = useState<DisplayError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const members = useQuery({
    ...trpc.governance.members.list.queryOptions({ daoId: dao.daoId, page, limit: PAGE_SIZE }),
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

  function onAdd(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const checked = validateWith(addMemberInput, {
      daoId: dao.daoId,
      memberAddress: formValues(form).memberAddress?.trim(),
    });
    if (!checked.ok) return setError(checked.error);
    setError(null);
    setNotice(null);
    add.mutate(checked.data, {
      onSuccess: (m) => {
        form.reset();
        setNotice(`Added ${m.memberAddress}. The DAO now has ${m.memberCount} members.`);
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
      await remove.mutateAsync({ daoId: dao.daoId, memberAddress: member.memberAddress });
    } catch (err) {
      throw new Error(governanceError(err).message);
    }
    setNotice(`Removed ${member.memberAddress}.`);
    refresh();
  }

  const data = members.data;
  const fromChain = dao.votingRules.token !== null;
  const manualBalances = dao.votingRules.tokenWeighted && !fromChain;
  return (
    <section aria-labelledby="members-heading" className="stack">
      <h2 id="members-heading">Members ({dao.memberCount})</h2>
      {notice && <Notice testId="members-notice">{notice}</Notice>}
      {fromChain && dao.votingRules.token && (
        <p className="muted small" data-testid="members-from-chain">
          Weights come from {dao.votingRules.token.symbol} on the chain at each proposal's snapshot block.
        </p>
      )}
      <ErrorAlert error={error} />
      {isOwner && dao.status === 'ACTIVE' && (
        <form onSubmit={onAdd} noValidate className="inline-form" aria-label="Add a member">
          <Field
            label="New member address"
            name="memberAddress"
            placeholder="0x…"
            autoComplete="off"
            spellCheck={false}
            errors={error?.fields.memberAddress}
          />
          <button type="submit" disabled={add.isPending}>
            {add.isPending ? 'Adding…' : 'Add member'}
          </button>
        </form>
      )}
      {members.isError && <ErrorAlert error={governanceError(members.error)} />}
      {data && (
        <ul className="member-list" data-testid="members">
          {data.items.map((m) => (
            <li key={m.memberAddress}>
              <Address address={m.memberAddress} />
              {sameAddress(m.memberAddress, dao.ownerAddress) && <span className="badge">owner</span>}
              {manualBalances && <span className="muted small"> balance {formatWeight(m.tokenBalance)}</span>}
              {isOwner && (
                <div className="member-actions">
                  {manualBalances && (
                    <BalanceEditor daoId={dao.daoId} member={m} onSaved={refresh} onError={setError} />
                  )}
                  {!sameAddress(m.memberAddress, dao.ownerAddress) && (
                    <button
                      type="button"
                      className="secondary danger"
                      disabled={remove.isPending}
                      aria-label={`Remove ${m.memberAddress}`}
                      onClick={() => setRemoving(m)}
                    >
                      Remove
                    </button>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {data && (
        <Pager label="Member pages" page={page} totalPages={data.pagination.totalPages} onPage={setPage} />
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        destructive
        title="Remove this member?"
        description={
          <span data-testid="remove-consequences">
            {removing?.memberAddress} will no longer be a member of {dao.name}: it cannot vote from now on,
            and its votes on the proposals that are open now
            {openCount === undefined ? '' : ` (${openCount} open)`} no longer count. Votes on closed proposals
            stay as they were.
          </span>
        }
        confirmLabel="Remove member"
        onConfirm={() => (removing ? onRemove(removing) : undefined)}
      />
    </section>
  );
}

function BalanceEditor({
  daoId,
  member,
  onSaved,
  onError,
}: {
  daoId: string;
  member: Member;
  onSaved: () => void;
  onError: (e: DisplayError | null) => void;
}) {
  const trpc = useTRPC();
  const save = useMutation(trpc.governance.members.setBalance.mutationOptions());
  const [fieldError, setFieldError] = useState<string[] | undefined>();

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const checked = validateWith(setBalanceInput, {
      daoId,
      memberAddress: member.memberAddress,
      tokenBalance: formValues(e.currentTarget).tokenBalance?.trim(),
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
      className="inline-form"
      aria-label={`Token balance of ${member.memberAddress}`}
    >
      <Field
        label="Token balance"
        name="tokenBalance"
        inputMode="numeric"
        defaultValue={member.tokenBalance}
        errors={fieldError}
      />
      <button type="submit" className="secondary" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save balance'}
      </button>
    </form>
  );
}
