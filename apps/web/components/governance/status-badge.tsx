import { useTranslations } from 'next-intl';
import type { DaoStatus, ProposalStatus } from '../../lib/governance/types';
import { Badge } from '../ui/badge';

const TONE: Record<DaoStatus | ProposalStatus, string> = {
  ACTIVE: 'text-primary',
  PASSED: 'text-success',
  REJECTED: 'text-destructive',
  INACTIVE: 'text-destructive',
  PENDING: 'text-muted-foreground',
  CANCELLED: 'text-muted-foreground',
};

/** A proposal's or DAO's status; colour is never the only signal (the word is always there). */
export function StatusBadge({ status, testId }: { status: DaoStatus | ProposalStatus; testId?: string }) {
  const t = useTranslations('governance.status');
  return (
    <Badge
      variant="outline"
      className={`border-current font-semibold ${TONE[status]}`}
      data-testid={testId}
      data-status={status}
    >
      {t(status)}
    </Badge>
  );
}
