'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { formatHours, formatPercent } from '../../lib/governance/format';
import { chainName, formatTokenAmount } from '../../lib/governance/token';
import type { Dao } from '../../lib/governance/types';
import { useTRPC } from '../../lib/trpc';
import { Address } from '../ui/address';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DateTime } from '../ui/date-time';
import { FormError } from '../ui/form';
import { useGovernanceError } from './use-governance-error';

/** The DAO's rules and counts. */
export function DaoRules({ dao }: { dao: Dao }) {
  const tr = useTranslations('governance.rules');
  const locale = useLocale();
  const chain = useChainName();
  const r = dao.votingRules;
  const t = r.token;
  const percent = (p: number) => formatPercent(p, locale);
  return (
    <dl className="details" data-testid="dao-rules">
      <div>
        <dt>{tr('owner')}</dt>
        <dd>
          <Address address={dao.ownerAddress} />
        </dd>
      </div>
      <div>
        <dt>{tr('threshold')}</dt>
        <dd>{tr('thresholdValue', { percent: percent(r.threshold) })}</dd>
      </div>
      <div>
        <dt>{tr('quorum')}</dt>
        <dd>{r.quorum ? tr('quorumValue', { percent: percent(r.quorum) }) : tr('none')}</dd>
      </div>
      <div>
        <dt>{tr('minPeriod')}</dt>
        <dd>{formatHours(r.minVotingPeriod, locale, tr('none'))}</dd>
      </div>
      <div>
        <dt>{tr('weight')}</dt>
        <dd>
          {t
            ? tr(t.standard === 'erc20-votes' ? 'weightDelegated' : 'weightBalance', { symbol: t.symbol })
            : r.tokenWeighted
              ? tr('weightToken')
              : tr('weightEqual')}
        </dd>
      </div>
      {t && (
        <div>
          <dt>{tr('token')}</dt>
          <dd
            data-testid="dao-token"
            data-address={t.address}
            data-chain-id={t.chainId}
            data-standard={t.standard}
          >
            {tr.rich('tokenOn', {
              symbol: t.symbol,
              chain: chain(t.chainId),
              strong: (text) => <strong>{text}</strong>,
            })}{' '}
            · <Address address={t.address} /> · {tr(`standards.${t.standard}.label`)}
          </dd>
        </div>
      )}
      <div>
        <dt>{tr('whoVotes')}</dt>
        <dd data-testid="dao-membership" data-membership={r.membership}>
          {r.membership === 'token-holders'
            ? tr.rich(t && r.minWeight ? 'holdersMin' : 'holdersAny', {
                min: t && r.minWeight ? formatTokenAmount(r.minWeight, t.decimals, t.symbol, 4, locale) : '',
                symbol: t?.symbol ?? tr('tokens'),
                strong: (text) => <strong>{text}</strong>,
              })
            : tr('theMembers')}
        </dd>
      </div>
      <div>
        <dt>{tr('results')}</dt>
        <dd data-testid="dao-results-visibility" data-visibility={r.resultsVisibility}>
          {r.resultsVisibility === 'after-end' ? tr('resultsAfterEnd') : tr('resultsLive')}
        </dd>
      </div>
      <div>
        <dt>{tr('voteChange')}</dt>
        <dd data-testid="dao-vote-change" data-allowed={r.allowVoteChange}>
          {r.allowVoteChange ? tr('voteChangeAllowed') : tr('voteChangeNotAllowed')}
        </dd>
      </div>
      {(r.delegation || t?.standard === 'erc20-votes') && (
        <div>
          <dt>{tr('delegation')}</dt>
          <dd data-testid="dao-delegation">
            {t?.standard === 'erc20-votes' ? tr('delegationChain') : tr('delegationOn')}
          </dd>
        </div>
      )}
      <div>
        <dt>{tr('created')}</dt>
        <dd>
          <DateTime value={dao.createdAt} />
        </dd>
      </div>
    </dl>
  );
}

/** "Ethereum (chain 1)" in the page's language; an unknown chain by its id only */
export function useChainName() {
  const t = useTranslations('governance.rules');
  return (chainId: number) => {
    const name = chainName(chainId);
    return name ? t('chainNamed', { name, id: chainId }) : t('chain', { id: chainId });
  };
}

/**
 * Owner (or admin): switch between ACTIVE and INACTIVE. Deactivating asks first, saying what it does;
 * activating again is harmless and happens at once. A PENDING DAO waits for an admin.
 */
export function DaoStatusControl({ dao }: { dao: Dao }) {
  const t = useTranslations('governance.statusControl');
  const governanceError = useGovernanceError();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<DisplayError | null>(null);
  const [asking, setAsking] = useState(false);
  const setStatus = useMutation(trpc.governance.daos.setStatus.mutationOptions());
  if (dao.status === 'PENDING') return <p className="text-sm text-muted-foreground">{t('pending')}</p>;
  const next = dao.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE';
  const apply = async () => {
    const updated = await setStatus.mutateAsync({ daoId: dao.daoId, status: next });
    setError(null);
    queryClient.setQueryData(trpc.governance.daos.get.queryKey({ daoId: dao.daoId }), updated);
    void queryClient.invalidateQueries({ queryKey: trpc.governance.daos.list.queryKey() });
  };
  return (
    <div className="flex flex-col gap-2">
      <FormError error={error} />
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
        {next === 'INACTIVE' ? t('deactivate') : t('activate')}
      </Button>
      <p className="text-sm text-muted-foreground">
        {next === 'INACTIVE' ? t('deactivateHint') : t('activateHint')}
      </p>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        destructive
        title={t('confirmTitle', { name: dao.name })}
        description={<span data-testid="deactivate-consequences">{t('confirmText')}</span>}
        confirmLabel={t('confirm')}
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
