import Link from 'next/link';
import { systemInfo } from '../../lib/governance/systems';
import type { ProposalSummary } from '../../lib/governance/types';
import { Countdown } from './countdown';
import { StatusBadge } from './status-badge';

/** Proposal rows: title, status, countdown, options and the voting system. */
export function ProposalList({ proposals, empty }: { proposals: ProposalSummary[]; empty: string }) {
  if (proposals.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ul className="card-list" data-testid="proposals">
      {proposals.map((p) => (
        <li key={p.proposalId} className="card">
          <div className="card-title">
            <Link href={`/proposals/${p.proposalId}`}>{p.title}</Link>
            <StatusBadge status={p.status} />
          </div>
          <p className="muted small">
            <Countdown status={p.status} startTime={p.startTime} endTime={p.endTime} /> ·{' '}
            {p.votingOptions.join(' / ')} · {systemInfo(p.votingSystem).name}
          </p>
        </li>
      ))}
    </ul>
  );
}
