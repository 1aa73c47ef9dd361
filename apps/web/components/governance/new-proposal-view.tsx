'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { sameAddress } from '../../lib/governance/types';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { useDaoPermissions } from '../../lib/governing/use-dao-permissions';
import { useTRPC } from '../../lib/trpc';
import { Loading, QueryState } from '../ui/query-state';
import { isMissing, RulesSummary } from './dao-view';
import { ProposalForm } from './proposal-form';
import { NeedsAccount } from './wallet-select';

/**
 * The new-proposal page of a DAO. What would make a submission fail comes first, instead of the form:
 * signed out or unverified, the DAO not active, none of my wallets a member.
 */
export function NewProposalView({ daoId }: { daoId: string }) {
  const t = useTranslations('governance.newProposal');
  const ts = useTranslations('governance.status');
  const td = useTranslations('governance.dao');
  const tp = useTranslations('governance.proposal');
  const trpc = useTRPC();
  const mine = useMyWallets();
  const can = useDaoPermissions(daoId);
  const refusals = useTranslations('errors.details');
  const dao = useQuery(trpc.governance.daos.get.queryOptions({ daoId }));

  if (dao.isError && isMissing(dao.error))
    return (
      <div className="flex flex-col gap-3">
        <h1 className="text-2xl font-semibold">{td('notFound')}</h1>
        <p>
          <Link className="underline" href="/daos">
            {td('seeAll')}
          </Link>
          .
        </p>
      </div>
    );
  // loading, or failed with "Try again" (components/ui/query-state.tsx); the blocking reasons below need
  // both the DAO and my wallets
  if (dao.data === undefined) return <QueryState query={dao}>{() => null}</QueryState>;
  if (mine.me.data === undefined && mine.signedIn)
    return <QueryState query={mine.me}>{() => null}</QueryState>;
  if (mine.loading) return <Loading />;
  const d = dao.data;
  const memberWallets = mine.wallets.filter((w) => d.members.some((m) => sameAddress(m, w)));
  // who may propose (votingRules.proposers): a wallet the permissions read refuses is no choice; one not
  // read yet stays, and the server has the last word
  const allowed = (w: string) => can.permissions.find((p) => sameAddress(p.address, w))?.propose !== false;
  const proposers = memberWallets.filter(allowed);
  const refusal = can.permissions.find(
    (p) => p.proposeRefusal && memberWallets.some((w) => sameAddress(w, p.address)),
  )?.proposeRefusal;
  const blocking =
    d.status !== 'ACTIVE' ? (
      <p
        role="status"
        className="rounded-md border border-amber-500/60 bg-amber-500/10 p-3"
        data-testid="blocking"
      >
        {t('inactive', { status: ts(d.status).toLowerCase() })}
      </p>
    ) : !mine.signedIn || !mine.verified ? (
      <div data-testid="blocking">
        <NeedsAccount signedIn={mine.signedIn} verified={mine.verified} what="propose" />
      </div>
    ) : memberWallets.length === 0 ? (
      <p
        role="status"
        className="rounded-md border border-amber-500/60 bg-amber-500/10 p-3"
        data-testid="blocking"
      >
        {t('notMember', { dao: d.name })}
      </p>
    ) : proposers.length === 0 ? (
      <p
        role="status"
        className="rounded-md border border-amber-500/60 bg-amber-500/10 p-3"
        data-testid="blocking"
      >
        {refusal === 'NOT_AN_AUTHOR' || refusal === 'BELOW_PROPOSAL_THRESHOLD'
          ? refusals(refusal)
          : t('notMember', { dao: d.name })}
      </p>
    ) : null;

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <header className="flex flex-col gap-2">
        <nav aria-label={tp('breadcrumb')} className="text-sm text-muted-foreground">
          <Link className="underline-offset-4 hover:underline" href={`/daos/${daoId}`}>
            {d.name}
          </Link>
          {` › ${t('crumb')}`}
        </nav>
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <RulesSummary dao={d} />
      </header>
      {blocking ?? <ProposalForm dao={d} memberWallets={proposers} />}
    </div>
  );
}
