'use client';
import Link from 'next/link';
import { pollWhenNotLive } from '../../lib/governance/live-events';
import type { TokenRef } from '../../lib/governance/token';
import type { ProposalSummary } from '../../lib/governance/types';
import { useProposalLive } from '../../lib/governance/use-proposal-live';
import { useResults } from '../../lib/governance/use-results';
import { Countdown } from './countdown';
import { CARD, CARD_TITLE } from './dao-list';
import { ResultBars } from './result-bars';
import { StatusBadge } from './status-badge';

/** An active proposal on the dashboard with its live tally and countdown. */
export function ActiveProposalCard({
  proposal,
  daoName,
  token = null,
}: {
  proposal: ProposalSummary;
  daoName: string;
  /** a token DAO's weights are shown with its decimals and symbol */
  token?: Pick<TokenRef, 'decimals' | 'symbol'> | null;
}) {
  const { live } = useProposalLive(proposal.proposalId);
  const results = useResults(proposal.proposalId, { pollMs: pollWhenNotLive(live, 5_000) });
  const status = results.data?.status ?? proposal.status;
  return (
    <li className={CARD} data-testid={`active-${proposal.proposalId}`}>
      <div className={CARD_TITLE}>
        <Link href={`/proposals/${proposal.proposalId}`} className="min-w-0 font-semibold break-words">
          {proposal.title}
        </Link>
        <StatusBadge status={status} />
      </div>
      <p className="m-0 text-sm text-muted-foreground">
        <Link href={`/daos/${proposal.daoId}`}>{daoName}</Link> ·{' '}
        <Countdown status={status} startTime={proposal.startTime} endTime={proposal.endTime} />
      </p>
      {results.data && <ResultBars results={results.data} compact token={token} />}
    </li>
  );
}
