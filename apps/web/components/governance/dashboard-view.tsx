'use client';
import { useQueries } from '@tanstack/react-query';
import Link from 'next/link';
import type { DaoSummary, ProposalSummary } from '../../lib/governance/types';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { useTRPC } from '../../lib/trpc';
import { ActiveProposalCard } from './active-proposal-card';
import { DaoList } from './dao-list';
import { NeedsAccount } from './wallet-select';
import './governance.css';

const MEMBER_DAOS_LIMIT = 100;
const MAX_ACTIVE = 20;

const unique = (daos: DaoSummary[]) => [...new Map(daos.map((d) => [d.daoId, d])).values()];

/** My DAOs, DAOs I am a member of, and their active proposals with live tallies. */
export function DashboardView() {
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
  const loading = owned.some((q) => q.isPending) || memberOf.some((q) => q.isPending);

  if (mine.loading) return <p>Loading your account…</p>;
  if (!mine.signedIn)
    return (
      <div className="stack">
        <h1>Dashboard</h1>
        <NeedsAccount signedIn={false} verified={false} what="see your DAOs and proposals" />
        <p>
          Or <Link href="/daos">browse every DAO</Link>.
        </p>
      </div>
    );
  return (
    <div className="stack gov">
      <header className="page-header">
        <h1>Dashboard</h1>
        <Link className="button" href="/daos/new">
          Create a DAO
        </Link>
      </header>
      {mine.wallets.length === 0 && (
        <p className="alert alert-info" role="status">
          DAOs belong to wallet addresses. <Link href="/account">Link a wallet</Link> to own or join DAOs.
        </p>
      )}
      <section aria-labelledby="active-heading" className="stack">
        <h2 id="active-heading">Active proposals</h2>
        {proposals.length === 0 ? (
          <p className="muted">{loading ? 'Loading…' : 'No active proposals in your DAOs.'}</p>
        ) : (
          <ul className="card-list" data-testid="active-proposals">
            {proposals.map((p) => (
              <ActiveProposalCard
                key={p.proposalId}
                proposal={p}
                daoName={nameOf(p.daoId)}
                token={tokenOf(p.daoId)}
              />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="owned-heading" className="stack">
        <h2 id="owned-heading">My DAOs</h2>
        <DaoList daos={ownedDaos} empty="You own no DAO yet." testId="owned-daos" />
      </section>
      <section aria-labelledby="member-heading" className="stack">
        <h2 id="member-heading">DAOs I am a member of</h2>
        <DaoList daos={memberDaos} empty="You are not a member of any other DAO." testId="member-daos" />
      </section>
    </div>
  );
}
