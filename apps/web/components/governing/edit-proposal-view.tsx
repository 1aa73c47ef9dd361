'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { useTRPC } from '../../lib/trpc';
import { isMissing } from '../governance/dao-view';
import { ProposalForm } from '../governance/proposal-form';
import { useVotingPower } from '../governance/voting-power';
import { NeedsAccount } from '../governance/wallet-select';
import { Loading, QueryState } from '../ui/query-state';

/**
 * Editing a proposal that has not started (PENDING), by its author or a DAO admin: the new-proposal form
 * with the proposal's values. What would make saving fail comes first, instead of the form.
 */
export function EditProposalView({ proposalId }: { proposalId: string }) {
  const t = useTranslations('governing.edit');
  const tp = useTranslations('governance.proposal');
  const trpc = useTRPC();
  const mine = useMyWallets();
  const proposal = useQuery(trpc.governance.proposals.get.queryOptions({ proposalId }));
  const daoId = proposal.data?.daoId;
  const dao = useQuery({
    ...trpc.governance.daos.get.queryOptions({ daoId: daoId ?? '' }),
    enabled: !!daoId,
  });
  const { powers } = useVotingPower(proposalId, mine.verified ? mine.wallets : [], {
    status: proposal.data?.status ?? 'PENDING',
    votes: 0,
  });

  if (proposal.isError && isMissing(proposal.error))
    return (
      <div className="flex flex-col gap-3">
        <h1 className="text-2xl font-semibold">{tp('notFound')}</h1>
        <p>
          <Link className="underline" href="/dashboard">
            {tp('backToDashboard')}
          </Link>
          .
        </p>
      </div>
    );
  if (proposal.data === undefined) return <QueryState query={proposal}>{() => null}</QueryState>;
  if (dao.data === undefined) return <QueryState query={dao}>{() => null}</QueryState>;
  if (mine.loading) return <Loading />;
  const p = proposal.data;
  const editor = powers.find((w) => w.canEdit)?.address;
  const waiting = mine.verified && mine.wallets.length > 0 && powers.length < mine.wallets.length;
  const blocking =
    p.status !== 'PENDING' ? (
      <p
        role="status"
        className="rounded-md border border-amber-500/60 bg-amber-500/10 p-3"
        data-testid="blocking"
      >
        {t('notPending')}
      </p>
    ) : !mine.signedIn || !mine.verified ? (
      <div data-testid="blocking">
        <NeedsAccount signedIn={mine.signedIn} verified={mine.verified} what="propose" />
      </div>
    ) : waiting ? (
      <Loading />
    ) : !editor ? (
      <p
        role="status"
        className="rounded-md border border-amber-500/60 bg-amber-500/10 p-3"
        data-testid="blocking"
      >
        {t('notAllowed')}
      </p>
    ) : null;

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <header className="flex flex-col gap-2">
        <nav aria-label={tp('breadcrumb')} className="text-sm text-muted-foreground">
          <Link className="underline-offset-4 hover:underline" href={`/daos/${p.daoId}`}>
            {dao.data.name}
          </Link>
          {' › '}
          <Link className="underline-offset-4 hover:underline" href={`/proposals/${proposalId}`}>
            {p.title}
          </Link>
          {` › ${t('crumb')}`}
        </nav>
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <p className="text-sm text-muted-foreground">{t('intro')}</p>
      </header>
      {blocking ??
        (editor && (
          <ProposalForm
            dao={{ ...dao.data, votingRules: p.votingRules }}
            memberWallets={[]}
            editing={{ proposal: p, actorAddress: editor }}
          />
        ))}
    </div>
  );
}
