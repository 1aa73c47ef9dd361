'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { type FormEvent, useState } from 'react';
import { getAddress, isAddress } from 'viem';
import { delegationMode, walletsThatMayDelegate } from '../../lib/delegation/status';
import { useMyDelegations } from '../../lib/delegation/use-my-delegations';
import { type DisplayError, toDisplayError } from '../../lib/errors';
import { sameAddress } from '../../lib/governance/types';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { useDaoPermissions } from '../../lib/governing/use-dao-permissions';
import { useTRPC } from '../../lib/trpc';
import { useInjectedWallet } from '../../lib/use-injected-wallet';
import { Pager } from '../governance/controls';
import { isMissing } from '../governance/dao-view';
import { DaoSkeleton } from '../governance/skeletons';
import { Notice } from '../ui/alert';
import { Button } from '../ui/button';
import { EmptyState } from '../ui/empty-state';
import { Field } from '../ui/field';
import { FormError } from '../ui/form';
import { ErrorRetry, QueryState } from '../ui/query-state';
import { ChainDelegation } from './chain-delegation';
import { DelegateDialog } from './delegate-dialog';
import { DelegateRow } from './delegate-row';
import { StatementForm } from './statement-form';

export const DELEGATES_PAGE_SIZE = 20;

/**
 * The Delegates page (docs/governance.md, "Delegation"), as Tally's and Agora's: what delegation is, the
 * ranked delegates with their statements and participation, Delegate on each row for who may, my
 * delegate marked with Remove, and my own statement. Says so when the DAO has delegation off, and for an
 * erc20-votes token shows the token's own delegation instead.
 */
export function DelegatesView({ daoId }: { daoId: string }) {
  const t = useTranslations('delegation.page');
  const td = useTranslations('governance.dao');
  const trpc = useTRPC();
  const mine = useMyWallets();
  const can = useDaoPermissions(daoId);
  const my = useMyDelegations(daoId);
  const wallet = useInjectedWallet();
  const connected = wallet.address;
  const [connectError, setConnectError] = useState<DisplayError | null>(null);
  const [page, setPage] = useState(1);
  const [delegatingTo, setDelegatingTo] = useState<string | null>(null);
  const [addressError, setAddressError] = useState<string[] | undefined>(undefined);
  const dao = useQuery(trpc.governance.daos.get.queryOptions({ daoId }));
  const mode = dao.data ? delegationMode(dao.data.votingRules) : 'off';
  const list = useQuery({
    ...trpc.governance.delegates.list.queryOptions({ daoId, page, limit: DELEGATES_PAGE_SIZE }),
    placeholderData: keepPreviousData,
    enabled: mode !== 'chain',
  });

  if (dao.isError && isMissing(dao.error))
    return (
      <div className="flex flex-col gap-3">
        <h1 className="text-2xl font-semibold">{td('notFound')}</h1>
        <p>
          {td('notFoundText')}{' '}
          <Link className="underline" href="/daos">
            {td('seeAll')}
          </Link>
          .
        </p>
      </div>
    );
  if (dao.data === undefined)
    return (
      <QueryState query={dao} loading={<DaoSkeleton />}>
        {() => null}
      </QueryState>
    );

  const d = dao.data;
  const rules = d.votingRules;
  const active = d.status === 'ACTIVE';
  const sessionWallets = mine.verified ? walletsThatMayDelegate(rules, d.members, mine.wallets) : [];
  const holdersOpen = rules.membership === 'token-holders';
  const connectedMayDelegate =
    !!connected && (holdersOpen || d.members.some((m) => sameAddress(m, connected)));
  const walletOption = holdersOpen || connectedMayDelegate || sessionWallets.length > 0;
  const mayDelegate = mode === 'on' && active && walletOption;
  const governs = can.actor('editSettings');
  const mineTo = (address: string) => my.delegations.filter((m) => sameAddress(m.delegate, address));
  const refresh = () => void my.refresh();

  return (
    <div className="flex min-w-0 flex-col gap-8">
      <header className="flex flex-col gap-3">
        <nav aria-label={t('crumb')} className="text-sm text-muted-foreground">
          <Link className="underline-offset-4 hover:underline" href={`/daos/${daoId}`}>
            {d.name}
          </Link>
          {` › ${t('crumb')}`}
        </nav>
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <p className="max-w-prose text-sm text-muted-foreground">{t('intro')}</p>
        {mode === 'off' && (
          <div data-testid="delegation-off" className="flex flex-col gap-2">
            <Notice>{t('off')}</Notice>
            {governs && (
              <p className="text-sm">
                {t.rich('offGoverns', {
                  link: (text) => (
                    <Link className="underline" href={`/daos/${daoId}/settings`}>
                      {text}
                    </Link>
                  ),
                })}
              </p>
            )}
          </div>
        )}
        {mode === 'on' && !active && <Notice>{t('inactive')}</Notice>}
        {mode === 'on' && active && !mine.loading && !mine.signedIn && !walletOption && (
          <div className="flex flex-col gap-2 text-sm" data-testid="delegate-sign-in">
            <p>
              {t.rich('signInToDelegate', {
                link: (text) => (
                  <Link className="underline" href={`/sign-in?next=/daos/${daoId}/delegates`}>
                    {text}
                  </Link>
                ),
              })}
            </p>
            {!connected && (
              <Button
                variant="outline"
                className="self-start"
                onClick={() => {
                  setConnectError(null);
                  wallet.connected().catch((err: unknown) => setConnectError(toDisplayError(err)));
                }}
              >
                {t('connect')}
              </Button>
            )}
            <FormError error={connectError} />
          </div>
        )}
        {mode === 'on' && active && mine.signedIn && mine.wallets.length > 0 && !walletOption && (
          <p className="text-sm text-muted-foreground">{t('notMember')}</p>
        )}
      </header>

      {mode === 'chain' && rules.token ? (
        <ChainDelegation token={rules.token} mine={my.delegations} />
      ) : (
        <>
          {active && mine.signedIn && mine.verified && mine.wallets.length > 0 && (
            <StatementForm daoId={daoId} wallets={mine.wallets} />
          )}
          {mayDelegate && (
            // any address, listed or not (a member who has not written a statement yet)
            <form
              onSubmit={(e: FormEvent<HTMLFormElement>) => {
                e.preventDefault();
                const to = String(new FormData(e.currentTarget).get('delegateTo') ?? '').trim();
                // all lower case, or mixed case with a correct checksum (EIP-55)
                if (!isAddress(to)) return setAddressError([t('addressInvalid')]);
                setAddressError(undefined);
                setDelegatingTo(getAddress(to));
              }}
              noValidate
              className="flex flex-wrap items-end gap-2 *:data-[slot=form-item]:flex-[1_1_18rem]"
              aria-label={t('toAddressForm')}
              data-testid="delegate-to-address"
            >
              <Field
                label={t('toAddress')}
                name="delegateTo"
                placeholder="0x…"
                autoComplete="off"
                spellCheck={false}
                errors={addressError}
              />
              <Button type="submit" variant="outline">
                {t('toAddressButton')}
              </Button>
            </form>
          )}
          <section aria-labelledby="delegates-heading" className="flex flex-col gap-4">
            <h2 id="delegates-heading" className="text-lg font-semibold">
              {t('listHeading', { count: list.data?.pagination.total ?? 0 })}
            </h2>
            {list.isError && (
              <ErrorRetry error={list.error} retrying={list.isFetching} onRetry={() => void list.refetch()} />
            )}
            {list.data && list.data.items.length === 0 && (
              <EmptyState
                icon={Users}
                title={t('emptyTitle')}
                description={t('emptyText')}
                testId="delegates-empty"
              />
            )}
            {list.data && list.data.items.length > 0 && (
              <ol className="flex flex-col gap-4" data-testid="delegates">
                {list.data.items.map((item, i) => {
                  const mineToThis = mineTo(item.address);
                  const isMe = mine.isMine(item.address) || sameAddress(connected, item.address);
                  const others = sessionWallets.some((w) => !sameAddress(w, item.address));
                  return (
                    <DelegateRow
                      key={item.address}
                      daoId={daoId}
                      rank={(page - 1) * DELEGATES_PAGE_SIZE + i + 1}
                      item={item}
                      token={rules.token}
                      mine={mineToThis}
                      isMe={isMe}
                      onDelegate={
                        mayDelegate && mineToThis.length === 0 && (!isMe || others)
                          ? () => setDelegatingTo(item.address)
                          : undefined
                      }
                      onChanged={refresh}
                    />
                  );
                })}
              </ol>
            )}
            {list.data && (
              <Pager
                label={t('pages')}
                page={page}
                totalPages={list.data.pagination.totalPages}
                onPage={setPage}
              />
            )}
          </section>
        </>
      )}
      {delegatingTo && (
        <DelegateDialog
          daoId={daoId}
          delegate={delegatingTo}
          wallets={sessionWallets}
          walletOption={walletOption}
          open
          onOpenChange={(open) => !open && setDelegatingTo(null)}
          onDone={refresh}
        />
      )}
    </div>
  );
}
