'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import Link from 'next/link';
import { governanceError } from '../../lib/governance/errors';
import { pollWhenNotLive, refetchFresh, useLiveEvents } from '../../lib/governance/live-events';
import { sameAddress } from '../../lib/governance/types';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { DaoRules, DaoStatusControl } from './dao-overview';
import { MembersSection } from './members-section';
import { ProposalForm } from './proposal-form';
import { ProposalTabs } from './proposal-tabs';
import { StatusBadge } from './status-badge';
import { NeedsAccount } from './wallet-select';
import './governance.css';

export const isMissing = (err: unknown) => {
  const status = err instanceof TRPCClientError ? (err.data as { httpStatus?: number })?.httpStatus : 0;
  return status === 404 || status === 400;
};

/** The DAO page: rules and status, proposals by status with the new-proposal form, members. */
export function DaoView({ daoId }: { daoId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const mine = useMyWallets();
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
    refetchInterval: pollWhenNotLive(live, 15_000),
  });

  if (dao.isPending) return <p>Loading the DAO…</p>;
  if (dao.isError)
    return isMissing(dao.error) ? (
      <div className="stack">
        <h1>DAO not found</h1>
        <p>
          There is no DAO at this address. <Link href="/daos">See all DAOs</Link>.
        </p>
      </div>
    ) : (
      <ErrorAlert error={governanceError(dao.error)} />
    );

  const d = dao.data;
  const isOwner = mine.isMine(d.ownerAddress);
  const memberWallets = mine.wallets.filter((w) => d.members.some((m) => sameAddress(m, w)));
  return (
    <div className="stack gov">
      <header className="page-header">
        <h1>{d.name}</h1>
        <StatusBadge status={d.status} testId="dao-status" />
      </header>
      {d.description && <p className="prose">{d.description}</p>}

      <section aria-labelledby="rules-heading" className="stack">
        <h2 id="rules-heading">Rules</h2>
        <DaoRules dao={d} />
        {(isOwner || mine.isAdmin) && mine.verified && <DaoStatusControl dao={d} />}
      </section>

      <section aria-labelledby="proposals-heading" className="stack">
        <h2 id="proposals-heading">Proposals ({d.proposalCount})</h2>
        {mine.loading ? null : d.status !== 'ACTIVE' ? (
          <p className="muted">This DAO is {d.status.toLowerCase()}: it takes no new proposals.</p>
        ) : !mine.signedIn || !mine.verified ? (
          <NeedsAccount signedIn={mine.signedIn} verified={mine.verified} what="submit a proposal" />
        ) : memberWallets.length === 0 ? (
          <p className="muted">Only members can submit proposals; none of your wallets is a member.</p>
        ) : (
          <details className="card">
            <summary>New proposal</summary>
            <ProposalForm dao={d} memberWallets={memberWallets} />
          </details>
        )}
        <ProposalTabs daoId={daoId} live={live} />
      </section>

      <MembersSection dao={d} isOwner={isOwner && mine.verified} />
    </div>
  );
}
