'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { governanceError } from '../../lib/governance/errors';
import { formatDateTime, formatHours, formatPercent, shortAddress } from '../../lib/governance/format';
import { chainName, formatTokenAmount, standardLabel } from '../../lib/governance/token';
import type { Dao } from '../../lib/governance/types';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';

/** The DAO's rules and counts. */
export function DaoRules({ dao }: { dao: Dao }) {
  const r = dao.votingRules;
  const t = r.token;
  return (
    <dl className="details" data-testid="dao-rules">
      <div>
        <dt>Owner</dt>
        <dd className="address">{dao.ownerAddress}</dd>
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
            <strong>{t.symbol}</strong> on {chainName(t.chainId)} ·{' '}
            <span className="address" title={t.address}>
              {shortAddress(t.address)}
            </span>{' '}
            · {standardLabel(t.standard)}
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
        <dd>{formatDateTime(dao.createdAt)}</dd>
      </div>
    </dl>
  );
}

/** Owner (or admin): switch between ACTIVE and INACTIVE. A PENDING DAO waits for an admin. */
export function DaoStatusControl({ dao }: { dao: Dao }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<DisplayError | null>(null);
  const setStatus = useMutation(trpc.governance.daos.setStatus.mutationOptions());
  if (dao.status === 'PENDING')
    return <p className="muted">This DAO is waiting for an administrator to approve it.</p>;
  const next = dao.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE';
  return (
    <div className="stack">
      <ErrorAlert error={error} />
      <button
        type="button"
        className="secondary"
        disabled={setStatus.isPending}
        onClick={() =>
          setStatus.mutate(
            { daoId: dao.daoId, status: next },
            {
              onSuccess: (updated) => {
                setError(null);
                queryClient.setQueryData(trpc.governance.daos.get.queryKey({ daoId: dao.daoId }), updated);
                void queryClient.invalidateQueries({ queryKey: trpc.governance.daos.list.queryKey() });
              },
              onError: (err) => setError(governanceError(err)),
            },
          )
        }
      >
        {next === 'INACTIVE' ? 'Deactivate DAO' : 'Activate DAO'}
      </button>
      <p className="muted small">
        {next === 'INACTIVE'
          ? 'An inactive DAO takes no new members, proposals or votes.'
          : 'Activating lets members submit proposals and vote again.'}
      </p>
    </div>
  );
}
