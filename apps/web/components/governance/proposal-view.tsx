'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { cn } from '../../lib/cn';
import { pollWhenNotLive } from '../../lib/governance/live-events';
import { laterStatus } from '../../lib/governance/results-order';
import { useProposalLive } from '../../lib/governance/use-proposal-live';
import { useResults } from '../../lib/governance/use-results';
import { pollOrRecover } from '../../lib/query-client';
import { useTRPC } from '../../lib/trpc';
import { useSearchParam } from '../../lib/use-search-param';
import { useViewerReads } from '../../lib/use-viewer-reads';
import { ProposalHistory } from '../governing/history-list';
import { CancellationNote, ProposalActions } from '../governing/proposal-actions';
import { Address } from '../ui/address';
import { Notice } from '../ui/alert';
import { DateTime } from '../ui/date-time';
import { ErrorRetry, QueryState } from '../ui/query-state';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/tabs';
import { Countdown } from './countdown';
import { isMissing } from './dao-view';
import { LiveIndicator } from './live-indicator';
import { Markdown } from './markdown';
import { ProposalComments } from './proposal-comments';
import { ProposalRecord } from './proposal-record';
import { ProposalTimeline } from './proposal-timeline';
import { RankedRounds } from './ranked-rounds';
import { ResultBars } from './result-bars';
import { ProposalSkeleton } from './skeletons';
import { StatusBadge } from './status-badge';
import { VoteExportLinks } from './vote-export-links';
import { VotePanel } from './vote-panel';
import { VotesList } from './votes-list';
import { useSystemText } from './voting-system-field';

/**
 * The proposal page, laid out as Snapshot's and Tally's: the body (title, status, author, the
 * description as markdown, tabs Overview / Votes) and a side column in a fixed order, Cast your vote →
 * Results → Timeline, beside the body on wide screens and below it on narrow ones. The side column is
 * not sticky: it is often taller than the window, and the page scrolls as one. A ranked-choice
 * proposal's rounds take the body's width under it (after the side column on narrow screens).
 */
export function ProposalView({ proposalId }: { proposalId: string }) {
  const t = useTranslations('governance.proposal');
  const systemText = useSystemText();
  const trpc = useTRPC();
  const { live } = useProposalLive(proposalId);
  // hidden results show a voter their own vote: read as the viewer once hydrated
  useViewerReads([
    trpc.governance.proposals.get.queryKey({ proposalId }),
    trpc.governance.votes.byProposal.queryKey({ proposalId }),
  ]);
  // ?tab=votes (with the list's ?choice= and ?sort=) opens the Votes tab: a filtered list can be linked to
  const [tab, setTab] = useSearchParam('tab');
  const proposal = useQuery({
    ...trpc.governance.proposals.get.queryOptions({ proposalId }),
    refetchInterval: pollOrRecover(pollWhenNotLive(live, 5_000)),
  });
  const results = useResults(proposalId, {
    pollMs: pollWhenNotLive(live, 3_000),
    enabled: proposal.isSuccess,
  });
  const daoId = proposal.data?.daoId;
  const dao = useQuery({
    ...trpc.governance.daos.get.queryOptions({ daoId: daoId ?? '' }),
    enabled: !!daoId,
  });

  if (proposal.isError && isMissing(proposal.error))
    return (
      <div className="flex flex-col gap-3">
        <h1 className="text-2xl font-semibold">{t('notFound')}</h1>
        <p>
          {t('notFoundText')}{' '}
          <Link className="underline" href="/dashboard">
            {t('backToDashboard')}
          </Link>
          .
        </p>
      </div>
    );
  // loading: the page's shape; failed without data: why, with "Try again" (components/ui/query-state.tsx)
  if (proposal.data === undefined)
    return (
      <QueryState query={proposal} loading={<ProposalSkeleton />}>
        {() => null}
      </QueryState>
    );

  const p = proposal.data;
  const status = laterStatus(p.status, results.data?.status);
  const hasData = Object.keys(p.proposalData).length > 0;
  // the rules the proposal was created under: later edits of the DAO never reach it
  const rules = p.votingRules;
  const token = rules?.token ?? null;
  const voteCount = results.data?.totalVotes ?? p.voteCount;
  const rounds = results.data?.rounds && results.data.totalVotes > 0 ? results.data.rounds : null;
  return (
    <div
      className={cn(
        'grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]',
        // the rounds under the body: the side column spans both rows, the body's row as tall as the body
        rounds && 'lg:grid-rows-[auto_1fr]',
      )}
    >
      <article
        className="flex min-w-0 flex-col gap-4 lg:col-start-1 lg:row-start-1"
        aria-labelledby="proposal-title"
      >
        {proposal.isError && (
          <ErrorRetry
            error={proposal.error}
            retrying={proposal.isFetching}
            onRetry={() => void proposal.refetch()}
          />
        )}
        <nav aria-label={t('breadcrumb')} className="text-sm text-muted-foreground">
          <Link className="underline-offset-4 hover:underline" href={`/daos/${p.daoId}`}>
            {dao.data?.name ?? 'DAO'}
          </Link>
          {` › ${t('crumb')}`}
        </nav>
        <header className="flex flex-col gap-2">
          <div className="flex flex-wrap items-center gap-3">
            <h1 id="proposal-title" className="min-w-0 text-2xl font-semibold break-words">
              {p.title}
            </h1>
            <span aria-live="polite">
              <StatusBadge status={status} testId="proposal-status" />
            </span>
          </div>
          <p className="flex flex-wrap items-center gap-x-2 text-sm text-muted-foreground">
            <span>{t('submittedBy')}</span> <Address address={p.creatorAddress} />
            {/* the "·" goes with the countdown: a wrapped line never ends in one (375 px) */}
            <span className="inline-flex items-center gap-x-2">
              <span aria-hidden="true">·</span>
              <Countdown status={status} startTime={p.startTime} endTime={p.endTime} testId="countdown" />
            </span>
          </p>
          <ProposalActions proposal={p} status={status} voteCount={voteCount} />
        </header>
        {status === 'CANCELLED' && <CancellationNote proposal={p} />}
        <Tabs
          value={tab === 'votes' ? 'votes' : 'overview'}
          onValueChange={(v) => setTab(v === 'votes' ? v : null)}
          className="flex flex-col gap-4"
        >
          <TabsList aria-label={t('sections')}>
            <TabsTrigger value="overview">{t('overview')}</TabsTrigger>
            <TabsTrigger value="votes" data-testid="votes-tab">
              {t('votes', { count: voteCount })}
            </TabsTrigger>
          </TabsList>
          <TabsContent value="overview" className="flex flex-col gap-4">
            {p.description ? (
              <Markdown>{p.description}</Markdown>
            ) : (
              <p className="text-sm text-muted-foreground">{t('noDescription')}</p>
            )}
            <p className="text-sm" data-testid="voting-system">
              {t('votingSystem')} <strong>{systemText(p.votingSystem).name}</strong>
              <span className="text-muted-foreground"> — {systemText(p.votingSystem).explanation}</span>
            </p>
            {p.snapshotBlock && (
              <p className="text-sm" data-testid="snapshot-block" data-block={p.snapshotBlock.number}>
                {t.rich('snapshot', {
                  holdings: token ? t('holdingsOf', { symbol: token.symbol }) : t('holdings'),
                  block: p.snapshotBlock.number,
                  strong: (text) => <strong>{text}</strong>,
                })}
                <span className="text-muted-foreground">
                  {' '}
                  (<DateTime value={p.snapshotBlock.timestamp} />)
                </span>
              </p>
            )}
            {p.snapshotError && status === 'PENDING' && (
              <Notice testId="snapshot-error">
                {t('snapshotError')}
                <span className="text-xs text-muted-foreground"> ({p.snapshotError})</span>
              </Notice>
            )}
            {hasData && (
              <details className="rounded-md border p-3 text-sm">
                <summary className="cursor-pointer font-medium">{t('data')}</summary>
                <pre className="mt-2 overflow-x-auto text-xs">{JSON.stringify(p.proposalData, null, 2)}</pre>
              </details>
            )}
            <ProposalHistory proposalId={proposalId} />
            <ProposalComments proposalId={proposalId} />
          </TabsContent>
          {/* mounted while hidden: the list stays current with the live stream and the count */}
          <TabsContent value="votes" forceMount className="data-[state=inactive]:hidden">
            <VotesList
              proposalId={proposalId}
              voteCount={voteCount}
              votingSystem={p.votingSystem}
              votingOptions={p.votingOptions}
              token={token}
            />
          </TabsContent>
        </Tabs>
      </article>

      <aside
        className={cn(
          'flex min-w-0 flex-col gap-6 lg:col-start-2 lg:row-start-1 lg:self-start',
          rounds && 'lg:row-span-2',
        )}
        aria-label={t('side')}
      >
        <div className="rounded-lg border bg-card p-4">
          <VotePanel
            proposal={p}
            status={status}
            allowVoteChange={rules?.allowVoteChange ?? false}
            rules={rules}
          />
        </div>
        <section
          aria-labelledby="results-heading"
          className="flex flex-col gap-3 rounded-lg border bg-card p-4"
        >
          <div className="flex items-center justify-between gap-2">
            <h2 id="results-heading" className="shrink-0 text-lg font-semibold">
              {t('results')}
            </h2>
            <LiveIndicator live={live} className="min-w-0 text-right" />
          </div>
          {results.isError && (
            <ErrorRetry
              error={results.error}
              retrying={results.isFetching}
              onRetry={() => void results.refetch()}
            />
          )}
          {results.data && (
            <ResultBars results={results.data} token={token} status={status} options={p.votingOptions} />
          )}
          {/* hidden results cannot be exported before the end (the API answers 409 RESULTS_HIDDEN) */}
          {results.data && !results.data.hidden && <VoteExportLinks proposalId={proposalId} />}
        </section>
        <ProposalRecord proposalId={proposalId} recordCid={p.recordCid} />
        <section
          aria-labelledby="timeline-heading"
          className="flex flex-col gap-3 rounded-lg border bg-card p-4"
        >
          <h2 id="timeline-heading" className="text-lg font-semibold">
            {t('timeline')}
          </h2>
          <ProposalTimeline createdAt={p.createdAt} startTime={p.startTime} endTime={p.endTime} />
        </section>
      </aside>
      {rounds && (
        <RankedRounds
          rounds={rounds}
          winner={results.data?.winningOption ?? null}
          className="lg:col-start-1 lg:row-start-2 lg:self-start"
        />
      )}
    </div>
  );
}
