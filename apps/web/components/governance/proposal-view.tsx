'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { governanceError } from '../../lib/governance/errors';
import { formatDateTime } from '../../lib/governance/format';
import { pollWhenNotLive } from '../../lib/governance/live-events';
import { laterStatus } from '../../lib/governance/results-order';
import { systemInfo } from '../../lib/governance/systems';
import type { ProposalStatus, Results } from '../../lib/governance/types';
import { useProposalLive } from '../../lib/governance/use-proposal-live';
import { useResults } from '../../lib/governance/use-results';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert, Notice } from '../alert';
import { Countdown } from './countdown';
import { isMissing } from './dao-view';
import { LiveIndicator } from './live-indicator';
import { ResultBars } from './result-bars';
import { StatusBadge } from './status-badge';
import { VoteExportLinks } from './vote-export-links';
import { VotePanel } from './vote-panel';
import { VotesList } from './votes-list';
import './governance.css';

function outcomeSentence(status: ProposalStatus, r: Results): string {
  if (status === 'PASSED') return `Passed: “${r.winningOption ?? ''}” won.`;
  if (r.totalVotes === 0) return 'Rejected: no votes were cast.';
  if (!r.quorumReached) return 'Rejected: the quorum was not reached.';
  if (r.winningOption === null) return 'Rejected: a tie at the top.';
  return 'Rejected: the threshold was not met.';
}

/** The proposal page: live results, status and countdown, my vote or the vote form, all votes. */
export function ProposalView({ proposalId }: { proposalId: string }) {
  const trpc = useTRPC();
  const { live } = useProposalLive(proposalId);
  const proposal = useQuery({
    ...trpc.governance.proposals.get.queryOptions({ proposalId }),
    refetchInterval: pollWhenNotLive(live, 5_000),
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

  if (proposal.isPending) return <p>Loading the proposal…</p>;
  if (proposal.isError)
    return isMissing(proposal.error) ? (
      <div className="stack">
        <h1>Proposal not found</h1>
        <p>
          There is no proposal at this address. <Link href="/dashboard">Back to your dashboard</Link>.
        </p>
      </div>
    ) : (
      <ErrorAlert error={governanceError(proposal.error)} />
    );

  const p = proposal.data;
  const status = laterStatus(p.status, results.data?.status);
  const hasData = Object.keys(p.proposalData).length > 0;
  const rules = dao.data?.votingRules;
  const token = rules?.token ?? null;
  return (
    <div className="stack gov">
      <p className="muted small">
        {dao.data ? (
          <Link href={`/daos/${p.daoId}`}>{dao.data.name}</Link>
        ) : (
          <Link href={`/daos/${p.daoId}`}>DAO</Link>
        )}
        {' › proposal'}
      </p>
      <header className="page-header">
        <h1>{p.title}</h1>
        <span aria-live="polite">
          <StatusBadge status={status} testId="proposal-status" />
        </span>
      </header>
      <p className="muted">
        <Countdown status={status} startTime={p.startTime} endTime={p.endTime} testId="countdown" />
        {' · '}
        {formatDateTime(p.startTime)} – {formatDateTime(p.endTime)}
      </p>
      <p className="muted small">
        Submitted by <span className="address">{p.creatorAddress}</span>
      </p>
      <p className="small" data-testid="voting-system">
        Voting system: <strong>{systemInfo(p.votingSystem).name}</strong>
        <span className="muted"> — {systemInfo(p.votingSystem).explanation}</span>
      </p>
      {p.snapshotBlock && (
        <p className="small" data-testid="snapshot-block" data-block={p.snapshotBlock.number}>
          {token ? `${token.symbol} holdings` : 'Token holdings'} read at block{' '}
          <strong>{p.snapshotBlock.number}</strong>
          <span className="muted"> ({formatDateTime(p.snapshotBlock.timestamp)})</span>
        </p>
      )}
      {p.snapshotError && status === 'PENDING' && (
        <Notice testId="snapshot-error">
          The token holdings could not be read yet; voting starts when the chain answers.
          <span className="muted small snapshot-reason"> ({p.snapshotError})</span>
        </Notice>
      )}
      {p.description && <p className="prose">{p.description}</p>}
      {hasData && (
        <details>
          <summary>Proposal data</summary>
          <pre className="code-block">{JSON.stringify(p.proposalData, null, 2)}</pre>
        </details>
      )}

      <section aria-labelledby="results-heading" className="stack">
        <div className="section-header">
          <h2 id="results-heading">Results</h2>
          <LiveIndicator live={live} />
        </div>
        {results.isError && <ErrorAlert error={governanceError(results.error)} />}
        {results.data && <ResultBars results={results.data} token={token} />}
        {results.data && status !== 'ACTIVE' && status !== 'PENDING' && (
          <p data-testid="outcome">{outcomeSentence(status, results.data)}</p>
        )}
        {/* hidden results cannot be exported before the end (the API answers 409 RESULTS_HIDDEN) */}
        {results.data && !results.data.hidden && <VoteExportLinks proposalId={proposalId} />}
      </section>

      <VotePanel
        proposal={p}
        status={status}
        // open to token holders: being on the member list is not what lets a wallet vote
        members={rules?.membership === 'token-holders' ? undefined : dao.data?.members}
        allowVoteChange={rules?.allowVoteChange ?? false}
        rules={rules}
      />
      <VotesList
        proposalId={proposalId}
        voteCount={p.voteCount}
        votingSystem={p.votingSystem}
        votingOptions={p.votingOptions}
        token={token}
      />
    </div>
  );
}
