import { useTranslations } from 'next-intl';
import type { DaoStatus, ProposalStatus } from '../../lib/governance/types';

/** A proposal's or DAO's status; colour is never the only signal (the word is always there). */
export function StatusBadge({ status, testId }: { status: DaoStatus | ProposalStatus; testId?: string }) {
  const t = useTranslations('governance.status');
  return (
    <span className={`status status-${status.toLowerCase()}`} data-testid={testId} data-status={status}>
      {t(status)}
    </span>
  );
}
