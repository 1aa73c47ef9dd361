'use client';
import { useTranslations } from 'next-intl';
import { Badge } from '../ui/badge';

const VARIANT = { active: 'success', pending_verification: 'warning', suspended: 'destructive' } as const;

/** A user's status in words, coloured: Active, Pending verification, Suspended. */
export function UserStatusBadge({ status }: { status: keyof typeof VARIANT }) {
  const t = useTranslations('admin.users.status');
  return (
    <Badge variant={VARIANT[status]} data-testid="user-status" data-status={status}>
      {t(status)}
    </Badge>
  );
}
