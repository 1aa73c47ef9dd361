'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { type FormEvent, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { formValues } from '../../lib/form';
import { type Dao, sameAddress } from '../../lib/governance/types';
import { useTRPC } from '../../lib/trpc';
import { Pager, SelectField } from '../governance/controls';
import { useGovernanceError, useValidate } from '../governance/use-governance-error';
import { Address } from '../ui/address';
import { Notice } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DateTime } from '../ui/date-time';
import { Field } from '../ui/field';
import { FormError } from '../ui/form';
import { ErrorRetry } from '../ui/query-state';

const ROLES = ['admin', 'moderator', 'author'] as const;
type Role = (typeof ROLES)[number];

/**
 * The DAO's roles (docs/governance.md, "Roles"): the owner (an implicit admin) and every address holding
 * one. The owner and admins grant and remove them; `actorAddress` is set only for them.
 */
export function RolesSection({ dao, actorAddress }: { dao: Dao; actorAddress: string | undefined }) {
  const t = useTranslations('governing.roles');
  const governanceError = useGovernanceError();
  const validate = useValidate();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [error, setError] = useState<DisplayError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // the role whose removal waits for a confirm
  const [removing, setRemoving] = useState<{ address: string; role: Role } | null>(null);
  const roles = useQuery({
    ...trpc.governance.roles.list.queryOptions({ daoId: dao.daoId, page, limit: 20 }),
    placeholderData: keepPreviousData,
  });
  const set = useMutation(trpc.governance.roles.set.mutationOptions());
  const remove = useMutation(trpc.governance.roles.remove.mutationOptions());
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.governance.roles.list.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.governance.daos.get.queryKey({ daoId: dao.daoId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.governance.permissions.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.governance.settings.history.pathKey() }),
    ]);

  async function onGrant(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const v = formValues(form);
    const { setRoleInput } = await import('@plenum/validators');
    const checked = validate(setRoleInput, {
      daoId: dao.daoId,
      address: v.address?.trim(),
      role: v.role,
      actorAddress,
    });
    if (!checked.ok) return setError(checked.error);
    setError(null);
    setNotice(null);
    set.mutate(checked.data, {
      onSuccess: () => {
        form.reset();
        setNotice(t('granted', { address: checked.data.address, role: t(`names.${checked.data.role}`) }));
        void refresh();
      },
      onError: (err) => setError(governanceError(err)),
    });
  }

  /** the confirm's action: a refusal stays in the dialog, in words (ConfirmDialog) */
  async function onRemove(address: string) {
    setError(null);
    setNotice(null);
    await remove.mutateAsync({ daoId: dao.daoId, address, actorAddress });
    setNotice(t('removed', { address }));
    void refresh();
  }

  return (
    <section aria-labelledby="roles-heading" className="flex flex-col gap-4" id="roles">
      <h2 id="roles-heading" className="text-lg font-semibold">
        {t('heading')}
      </h2>
      <p className="text-sm text-muted-foreground">{t('intro')}</p>
      {notice && <Notice testId="roles-notice">{notice}</Notice>}
      <FormError error={error} />
      {actorAddress && (
        <form
          onSubmit={onGrant}
          noValidate
          className="flex flex-wrap items-end gap-2 *:data-[slot=form-item]:flex-[1_1_14rem]"
          aria-label={t('grantForm')}
        >
          <Field
            label={t('address')}
            name="address"
            placeholder="0x…"
            autoComplete="off"
            spellCheck={false}
            errors={error?.fields.address}
          />
          <SelectField label={t('role')} name="role" defaultValue="moderator" errors={error?.fields.role}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`names.${r}`)}
              </option>
            ))}
          </SelectField>
          <Button type="submit" disabled={set.isPending}>
            {set.isPending ? t('granting') : t('grant')}
          </Button>
        </form>
      )}
      <ul className="flex flex-col gap-3" data-testid="roles">
        <li className="flex min-w-0 flex-wrap items-center gap-2 border-b pb-3" data-role="owner">
          <Address address={dao.ownerAddress} />
          <Badge variant="outline">{t('names.owner')}</Badge>
        </li>
        {roles.data?.items
          .filter((r) => !sameAddress(r.address, dao.ownerAddress))
          .map((r) => (
            <li
              key={r.address}
              className="flex min-w-0 flex-wrap items-center gap-2 border-b pb-3"
              data-testid="role-entry"
              data-role={r.role}
              data-role-address={r.address}
            >
              <Address address={r.address} />
              <Badge variant="outline">{t(`names.${r.role as Role}`)}</Badge>
              <span className="text-xs text-muted-foreground">
                <DateTime value={r.grantedAt} />
              </span>
              {actorAddress && (
                <Button
                  variant="outline"
                  size="sm"
                  className="ml-auto border-destructive text-destructive"
                  disabled={remove.isPending}
                  aria-label={t('removeNamed', { address: r.address })}
                  onClick={() => setRemoving({ address: r.address, role: r.role as Role })}
                >
                  {t('remove')}
                </Button>
              )}
            </li>
          ))}
      </ul>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        destructive
        title={t('confirmTitle')}
        description={
          <span data-testid="role-remove-consequences">
            {t('confirmText', {
              address: removing?.address ?? '',
              role: removing ? t(`names.${removing.role}`) : '',
              dao: dao.name,
            })}
          </span>
        }
        confirmLabel={t('remove')}
        onConfirm={() => (removing ? onRemove(removing.address) : undefined)}
      />
      {roles.isError && (
        <ErrorRetry error={roles.error} retrying={roles.isFetching} onRetry={() => void roles.refetch()} />
      )}
      {roles.data && (
        <Pager
          label={t('pages')}
          page={page}
          totalPages={roles.data.pagination.totalPages}
          onPage={setPage}
        />
      )}
    </section>
  );
}
