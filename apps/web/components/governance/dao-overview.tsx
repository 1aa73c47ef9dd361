'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { governanceError } from '../../lib/governance/errors';
import { formatHours, formatPercent } from '../../lib/governance/format';
import { chainName, formatTokenAmount, standardLabel } from '../../lib/governance/token';
import type { Dao } from '../../lib/governance/types';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { Address } from '../ui/address';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DateTime } from '../ui/date-time';

/** The DAO's rules and counts. */
export function DaoRules({ dao }: { dao: Dao }) {
  const r = dao.votingRules;
  const t = r.token;
  return (
    <dl className="details" data-testid="dao-rules">
      <div>
        <dt>Owner</dt>
        <dd>
          <Address address={dao.ownerAddress} />
        </dd>
      </div>
      <div>
        <dt>Threshold</dt>
        <dd>{formatPercent(r.threshold)} of decided weight</dd>
      </div>
      <div>
        <dt>Quorum</dt>
        <dd>{r.quorum ? `${formatPercent(r.quorum)} of the electorate` : 'none'}</dd>
      </div>
      <div>
        <dt>Minimum voting period</dt>
        <dd>{formatHours(r.minVotingPeriod)}</dd>
      </div>
      <div>
        <dt>Voting weight</dt>
        <dd>
          {t
            ? `${t.symbol} ${t.standard === 'erc20-votes' ? 'delegated votes' : 'balance'} at each proposal's snapshot block`
            : r.tokenWeighted
              ? 'token balance'
              : 'one member, one vote'}
        </dd>
      </div>
      {t && (
        <div>
          <dt>Governance token</dt>
          <dd
            data-testid="dao-token"
            data-address={t.address}
            data-chain-id={t.chainId}
            data-standard={t.standard}
          >
            <strong>{t.symbol}</strong> on {chainName(t.chainId)} · <Address address={t.address} /> ·{' '}
            {standardLabel(t.standard)}
          </dd>
        </div>
      )}
      <div>
        <dt>Who votes</dt>
        <dd data-testid="dao-membership" data-membership={r.membership}>
          {r.membership === 'token-holders' ? (
            <>
              <strong>Open to token holders</strong>: any wallet holding{' '}
              {t && r.minWeight
                ? `at least ${formatTokenAmount(r.minWeight, t.decimals, t.symbol)}`
                : `some ${t?.symbol ?? 'tokens'}`}{' '}
              at the snapshot block may vote, without being added as a member
            </>
          ) : (
            'the members'
          )}
        </dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>
          <DateTime value={dao.createdAt} />
        </dd>
      </div>
    </dl>
  );
}

/**
 * Owner (or admin): switch between ACTIVE and INACTIVE. Deactivating asks first, saying what it does;
 * activating again is harmless and happens at once. A PENDING DAO waits for an admin.
 */
export function DaoStatusControl({ dao }: { dao: Dao }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<DisplayError | null>(null);
  const [asking, setAsking] = useState(false);
  const setStatus = useMutation(trpc.governance.daos.setStatus.mutationOptions());
  if (dao.status === 'PENDING')
    return (
      <p className="text-sm text-muted-foreground">This DAO is waiting for an administrator to approve it.</p>
    );
  const next = dao.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE';
  const apply = async () => {
    const updated = await setStatus.mutateAsync({ daoId: dao.daoId, status: next });
    setError(null);
    queryClient.setQueryData(trpc.governance.daos.get.queryKey({ daoId: dao.daoId }), updated);
    void queryClient.invalidateQueries({ queryKey: trpc.governance.daos.list.queryKey() });
  };
  return (
    <div className="flex flex-col gap-2">
      <ErrorAlert error={error} />
      <Button
        variant={next === 'INACTIVE' ? 'destructive' : 'outline'}
        className="self-start"
        disabled={setStatus.isPending}
        onClick={() =>
          next === 'INACTIVE'
            ? setAsking(true)
            : apply().catch((err: unknown) => setError(governanceError(err)))
        }
      >
        {next === 'INACTIVE' ? 'Deactivate DAO' : 'Activate DAO'}
      </Button>
      <p className="text-sm text-muted-foreground">
        {next === 'INACTIVE'
          ? 'An inactive DAO takes no new members, proposals or votes.'
          : 'Activating lets members submit proposals and vote again.'}
      </p>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        destructive
        title={`Deactivate ${dao.name}?`}
        description={
          <span data-testid="deactivate-consequences">
            While it is inactive the DAO takes no new members, no new proposals and no votes, also on the
            proposals that are open now. You can activate it again later.
          </span>
        }
        confirmLabel="Deactivate"
        onConfirm={async () => {
          try {
            await apply();
          } catch (err) {
            throw new Error(governanceError(err).message);
          }
        }}
      />
    </div>
  );
}
