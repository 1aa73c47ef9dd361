import type { DaoStatus, ProposalStatus } from '../../lib/governance/types';

const LABELS: Record<DaoStatus | ProposalStatus, string> = {
  PENDING: 'Pending',
  ACTIVE: 'Active',
  INACTIVE: 'Inactive',
  PASSED: 'Passed',
  REJECTED: 'Rejected',
};

/** A proposal's or DAO's status; colour is never the only signal (the word is always there). */
export function StatusBadge({ status, testId }: { status: DaoStatus | ProposalStatus; testId?: string }) {
  return (
    <span className={`status status-${status.toLowerCase()}`} data-testid={testId} data-status={status}>
      {LABELS[status]}
    </span>
  );
}
