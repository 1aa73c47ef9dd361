'use client';
import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import type { Dao } from '../../lib/governance/types';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { useTRPC } from '../../lib/trpc';
import { useGovernanceError } from '../governance/use-governance-error';
import { Address } from '../ui/address';
import { Alert, AlertDescription, Notice } from '../ui/alert';
import { Button } from '../ui/button';
import { DateTime } from '../ui/date-time';
import { FormError } from '../ui/form';
import { useRefreshOwnership } from './ownership-section';

/**
 * The DAO page's note of an ownership transfer waiting to be accepted; to a signed-in account holding the
 * named address, "Accept ownership" (governance.ownership.accept).
 */
export function PendingTransfer({ dao }: { dao: Dao }) {
  const t = useTranslations('governing.ownership');
  const governanceError = useGovernanceError();
  const trpc = useTRPC();
  const mine = useMyWallets();
  const refresh = useRefreshOwnership(dao.daoId);
  const accept = useMutation(trpc.governance.ownership.accept.mutationOptions());
  const [error, setError] = useState<DisplayError | null>(null);
  const [accepted, setAccepted] = useState(false);
  const pending = dao.pendingOwner;
  if (!pending)
    return accepted ? <Notice testId="ownership-accepted">{t('accepted', { dao: dao.name })}</Notice> : null;
  const mineToAccept = mine.verified && mine.isMine(pending.address);
  return (
    <Alert variant="warning" role="status" data-testid="pending-transfer">
      <AlertDescription>
        <p className="flex flex-wrap items-center gap-x-2">
          {t('pendingNote')} <Address address={pending.address} />
          <span className="text-muted-foreground">
            ({t('since')} <DateTime value={pending.requestedAt} />)
          </span>
        </p>
        {mineToAccept && (
          <div className="flex flex-col gap-2">
            <p>{t('acceptHint', { dao: dao.name })}</p>
            <FormError error={error} />
            <Button
              className="self-start"
              disabled={accept.isPending}
              onClick={() =>
                accept.mutate(
                  { daoId: dao.daoId, address: pending.address },
                  {
                    onSuccess: () => {
                      setError(null);
                      setAccepted(true);
                      void refresh();
                    },
                    onError: (err) => setError(governanceError(err)),
                  },
                )
              }
            >
              {t('accept')}
            </Button>
          </div>
        )}
      </AlertDescription>
    </Alert>
  );
}
