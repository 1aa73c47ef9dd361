'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { Plus, Settings, Webhook } from 'lucide-react';
import Link from 'next/link';
import { useLocale, useTranslations } from 'next-intl';
import { formatHours, formatPercent } from '../../lib/governance/format';
import { pollWhenNotLive, refetchFresh, useLiveEvents } from '../../lib/governance/live-events';
import { type Dao, sameAddress } from '../../lib/governance/types';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { useDaoPermissions } from '../../lib/governing/use-dao-permissions';
import { pollOrRecover } from '../../lib/query-client';
import { useTRPC } from '../../lib/trpc';
import { DelegationBlock } from '../delegation/delegation-block';
import { PendingTransfer } from '../governing/pending-transfer';
import { Button } from '../ui/button';
import { ErrorRetry, QueryState } from '../ui/query-state';
import { DaoRules, DaoStatusControl } from './dao-overview';
import { Markdown } from './markdown';
import { MembersSection } from './members-section';
import { ProposalTabs } from './proposal-tabs';
import { DaoSkeleton } from './skeletons';
import { StatusBadge } from './status-badge';

export const isMissing = (err: unknown) => {
  const status = err instanceof TRPCClientError ? (err.data as { httpStatus?: number })?.httpStatus : 0;
  return status === 404 || status === 400;
};

/** The rules at a glance: threshold, quorum, minimum period, how weight is counted. */
export function RulesSummary({ dao }: { dao: Dao }) {
  const t = useTranslations('governance.dao.summary');
  const td = useTranslations('governance.dao');
  const locale = useLocale();
  const r = dao.votingRules;
  const items = [
    t('threshold', { percent: formatPercent(r.threshold, locale) }),
    r.quorum ? t('quorum', { percent: formatPercent(r.quorum, locale) }) : t('noQuorum'),
    // "Minimum period none" read as a glitch: no minimum is said in words
    r.minVotingPeriod > 0
      ? t('minPeriod', { period: formatHours(r.minVotingPeriod, locale) })
      : t('noMinPeriod'),
    r.token
      ? t('symbolWeighted', { symbol: r.token.symbol })
      : r.tokenWeighted
        ? t('tokenWeighted')
        : t('equal'),
    // named only when on (docs/governance.md, "Delegation")
    ...(r.delegation ? [t('delegation')] : []),
  ];
  return (
    <ul className="flex flex-wrap gap-2 text-xs" data-testid="rules-summary" aria-label={td('rules')}>
      {items.map((i) => (
        <li key={i} className="rounded-full border bg-muted/50 px-2.5 py-1">
          {i}
        </li>
      ))}
    </ul>
  );
}

/** The DAO page: header (name, status, rules summary, member count, New proposal), proposals, members, rules. */
export function DaoView({ daoId }: { daoId: string }) {
  const t = useTranslations('governance.dao');
  const ts = useTranslations('governance.status');
  const tg = useTranslations('governing.dao');
  const tw = useTranslations('webhooks');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const mine = useMyWallets();
  const can = useDaoPermissions(daoId);
  const refetchDao = () =>
    void refetchFresh(queryClient, [
      trpc.governance.proposals.byDao.queryKey({ daoId }),
      trpc.governance.daos.get.queryKey({ daoId }),
    ]);
  const { live } = useLiveEvents(
    { daoId, events: ['proposal_submitted', 'proposal_status_changed'] },
    { onEvent: refetchDao, onResync: refetchDao },
  );
  const dao = useQuery({
    ...trpc.governance.daos.get.queryOptions({ daoId }),
    refetchInterval: pollOrRecover(pollWhenNotLive(live, 15_000)),
  });

  if (dao.isError && isMissing(dao.error))
    return (
      <div className="flex flex-col gap-3">
        <h1 className="text-2xl font-semibold">{t('notFound')}</h1>
        <p>
          {t('notFoundText')}{' '}
          <Link className="underline" href="/daos">
            {t('seeAll')}
          </Link>
          .
        </p>
      </div>
    );
  // loading: the page's shape; failed without data: why, with "Try again" (components/ui/query-state.tsx)
  if (dao.data === undefined)
    return (
      <QueryState query={dao} loading={<DaoSkeleton />}>
        {() => null}
      </QueryState>
    );

  const d = dao.data;
  const isOwner = mine.isMine(d.ownerAddress);
  // who may propose (votingRules.proposers): hidden once the permissions read says none of my wallets may
  const mayPropose = can.permissions.length === 0 || can.permissions.some((p) => p.propose);
  const governs = can.actor('editSettings') ?? can.actor('manageRoles') ?? can.actor('transferOwnership');
  const isMember = mine.wallets.some((w) => d.members.some((m) => sameAddress(m, w)));
  return (
    <div className="flex min-w-0 flex-col gap-8">
      {/* a refetch that failed while the page is shown: the page stays, the error comes first */}
      {dao.isError && (
        <ErrorRetry error={dao.error} retrying={dao.isFetching} onRetry={() => void dao.refetch()} />
      )}
      <header className="flex flex-col gap-3" data-testid="dao-header">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex min-w-0 flex-wrap items-center gap-3">
            <h1 className="min-w-0 text-2xl font-semibold break-words">{d.name}</h1>
            <StatusBadge status={d.status} testId="dao-status" />
          </div>
          <div className="flex flex-wrap gap-2">
            {governs && (
              <Button asChild variant="outline">
                <Link href={`/daos/${daoId}/settings`} data-testid="dao-settings-link">
                  <Settings aria-hidden="true" />
                  {tg('settings')}
                </Link>
              </Button>
            )}
            {governs && (
              <Button asChild variant="outline">
                <Link href={`/daos/${daoId}/integrations`} data-testid="dao-integrations-link">
                  <Webhook aria-hidden="true" />
                  {tw('title')}
                </Link>
              </Button>
            )}
            {isMember && d.status === 'ACTIVE' && mayPropose && (
              <Button asChild>
                <Link href={`/daos/${daoId}/proposals/new`}>
                  <Plus aria-hidden="true" />
                  {t('newProposal')}
                </Link>
              </Button>
            )}
          </div>
        </div>
        <PendingTransfer dao={d} />
        {d.description && <Markdown>{d.description}</Markdown>}
        <RulesSummary dao={d} />
        <p className="text-sm text-muted-foreground" data-testid="dao-counts">
          {t('members', { count: d.memberCount })} · {t('proposals', { count: d.proposalCount })}
        </p>
        {d.rejectionReason && (
          <p className="text-sm" data-testid="dao-rejection">
            {tg('rejected', { reason: d.rejectionReason })}
          </p>
        )}
        {!mine.loading && d.status !== 'ACTIVE' && (
          <p className="text-sm text-muted-foreground">
            {t('noNewProposals', { status: ts(d.status).toLowerCase() })}
          </p>
        )}
      </header>

      <DelegationBlock dao={d} />

      <section aria-labelledby="proposals-heading" className="flex flex-col gap-3">
        <h2 id="proposals-heading" className="text-lg font-semibold">
          {t('proposalsHeading', { count: d.proposalCount })}
        </h2>
        <ProposalTabs daoId={daoId} live={live} />
      </section>

      <MembersSection dao={d} actorAddress={can.actor('manageMembers')} />

      <section aria-labelledby="rules-heading" className="flex flex-col gap-3">
        <h2 id="rules-heading" className="text-lg font-semibold">
          {t('rules')}
        </h2>
        <DaoRules dao={d} />
        <Link className="self-start text-sm underline" href={`/daos/${daoId}/settings#history`}>
          {tg('historyLink')}
        </Link>
        {(isOwner || mine.isAdmin) && mine.verified && <DaoStatusControl dao={d} />}
      </section>
    </div>
  );
}
