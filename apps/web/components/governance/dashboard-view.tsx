'use client';
import { useQueries } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { combineQueries } from '../../lib/combine-queries';
import type { DaoSummary, ProposalSummary } from '../../lib/governance/types';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { useTRPC } from '../../lib/trpc';
import { Notice } from '../ui/alert';
import { Button } from '../ui/button';
import { QueryState } from '../ui/query-state';
import { ActiveProposalCard } from './active-proposal-card';
import { PAGE_HEADER } from './dao-directory';
import { DaoList } from './dao-list';
import { CardsSkeleton, DashboardSkeleton } from './skeletons';
import { NeedsAccount } from './wallet-select';

const MEMBER_DAOS_LIMIT = 100;
const MAX_ACTIVE = 20;

const unique = (daos: DaoSummary[]) => [...new Map(daos.map((d) => [d.daoId, d])).values()];

/** My DAOs, DAOs I am a member of, and their active proposals with live tallies. */
export function DashboardView() {
  const t = useTranslations('governance.dashboard');
  const td = useTranslations('governance.directory');
  const trpc = useTRPC();
  const mine = useMyWallets();
  const owned = useQueries({
    queries: mine.wallets.map((ownerAddress) =>
      trpc.governance.daos.byOwner.queryOptions({ ownerAddress, limit: 50 }),
    ),
  });
  const memberOf = useQueries({
    queries: mine.wallets.map((member) =>
      trpc.governance.daos.list.queryOptions({ member, limit: MEMBER_DAOS_LIMIT }),
    ),
  });
  const ownedDaos = unique(owned.flatMap((q) => q.data?.items ?? []));
  const memberDaos = unique(memberOf.flatMap((q) => q.data?.items ?? [])).filter(
    (d) => !ownedDaos.some((o) => o.daoId === d.daoId),
  );
  const all = unique([...ownedDaos, ...memberDaos]);
  const active = useQueries({
    queries: all.map((d) =>
      trpc.governance.proposals.activeByDao.queryOptions({ daoId: d.daoId, limit: 10 }),
    ),
  });
  const proposals: ProposalSummary[] = active
    .flatMap((q) => q.data?.items ?? [])
    .sort((a, b) => Date.parse(a.endTime) - Date.parse(b.endTime))
    .slice(0, MAX_ACTIVE);
  const nameOf = (daoId: string) => all.find((d) => d.daoId === daoId)?.name ?? 'DAO';
  const tokenOf = (daoId: string) => all.find((d) => d.daoId === daoId)?.votingRules.token ?? null;
  // nothing below may say "none" from a read that failed or has not answered yet: each part waits for
  // its reads (a placeholder), or says what failed with "Try again"
  const daoLists = combineQueries([...owned, ...memberOf]);
  const activeLists = combineQueries(active);

  if (!mine.signedIn && !mine.loading)
    return (
      <div className="flex flex-col gap-4">
        <h1>{t('title')}</h1>
        <NeedsAccount signedIn={false} verified={false} what="dashboard" />
        <p>{t.rich('browse', { link: (text) => <Link href="/daos">{text}</Link> })}</p>
      </div>
    );
  const header = (
    <header className={PAGE_HEADER}>
      <h1 className="min-w-0 break-words">{t('title')}</h1>
      <Button asChild>
        <Link href="/daos/new">
          <Plus aria-hidden="true" />
          {td('create')}
        </Link>
      </Button>
    </header>
  );
  if (mine.me.data === undefined)
    return (
      <div className="flex flex-col gap-4">
        {header}
        <QueryState query={mine.me} loading={<DashboardSkeleton />}>
          {() => null}
        </QueryState>
      </div>
    );
  return (
    <div className="flex flex-col gap-4">
      {header}
      {mine.wallets.length === 0 && (
        <Notice>{t.rich('walletsNeeded', { link: (text) => <Link href="/account">{text}</Link> })}</Notice>
      )}
      <section aria-labelledby="active-heading" className="flex flex-col gap-4">
        <h2 id="active-heading">{t('active')}</h2>
        <QueryState query={daoLists} loading={<CardsSkeleton count={2} />}>
          {() => (
            <QueryState query={activeLists} loading={<CardsSkeleton count={2} />}>
              {() =>
                proposals.length === 0 ? (
                  <p className="text-muted-foreground">{t('noActive')}</p>
                ) : (
                  <ul className="flex flex-col gap-3" data-testid="active-proposals">
                    {proposals.map((p) => (
                      <ActiveProposalCard
                        key={p.proposalId}
                        proposal={p}
                        daoName={nameOf(p.daoId)}
                        token={tokenOf(p.daoId)}
                      />
                    ))}
                  </ul>
                )
              }
            </QueryState>
          )}
        </QueryState>
      </section>
      <section aria-labelledby="owned-heading" className="flex flex-col gap-4">
        <h2 id="owned-heading">{t('owned')}</h2>
        {/* one error for the DAO lists (above, under Active): these only wait or show what was read */}
        {daoLists.data === undefined ? (
          <CardsSkeleton count={1} testId="owned-skeleton" />
        ) : (
          <DaoList daos={ownedDaos} empty={t('ownedEmpty')} testId="owned-daos" />
        )}
      </section>
      <section aria-labelledby="member-heading" className="flex flex-col gap-4">
        <h2 id="member-heading">{t('member')}</h2>
        {daoLists.data === undefined ? (
          <CardsSkeleton count={1} testId="member-skeleton" />
        ) : (
          <DaoList daos={memberDaos} empty={t('memberEmpty')} testId="member-daos" />
        )}
      </section>
    </div>
  );
}
