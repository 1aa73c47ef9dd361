import Link from 'next/link';
import type { DaoSummary } from '../../lib/governance/types';
import { StatusBadge } from './status-badge';

/** DAO cards: name, status, counts and rules at a glance. */
export function DaoList({ daos, empty, testId }: { daos: DaoSummary[]; empty: string; testId?: string }) {
  if (daos.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ul className="card-list" data-testid={testId}>
      {daos.map((d) => (
        <li key={d.daoId} className="card">
          <div className="card-title">
            <Link href={`/daos/${d.daoId}`}>{d.name}</Link>
            <StatusBadge status={d.status} />
          </div>
          {d.description && <p className="clamp">{d.description}</p>}
          <p className="muted small">
            {d.memberCount} {d.memberCount === 1 ? 'member' : 'members'} · {d.proposalCount}{' '}
            {d.proposalCount === 1 ? 'proposal' : 'proposals'} · threshold {d.votingRules.threshold} %
            {d.votingRules.tokenWeighted ? ' · token-weighted' : ''}
          </p>
        </li>
      ))}
    </ul>
  );
}
