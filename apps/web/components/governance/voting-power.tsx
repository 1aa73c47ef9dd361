'use client';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useRef } from 'react';
import type { PowerWithDelegate } from '../../lib/delegation/status';
import { formatWeight, shortAddress } from '../../lib/governance/format';
import {
  formatTokenAmount,
  type PowerReason,
  type PowerView,
  type TokenRef,
} from '../../lib/governance/token';
import type { ProposalStatus } from '../../lib/governance/types';
import { useTRPC } from '../../lib/trpc';

/**
 * canCancel, canEdit: what the address may do to the proposal now (components/governing/proposal-actions.tsx);
 * delegatedWeight, delegatorCount, delegate: its delegation on the proposal (docs/governance.md, "Counting")
 */
export type Power = PowerView &
  Pick<PowerWithDelegate, 'delegatedWeight' | 'delegatorCount' | 'delegate'> & {
    address: string;
    member: boolean;
    canCancel: boolean;
    canEdit: boolean;
  };

/**
 * governance.votes.power for each address (my wallets and the connected one), refreshed when the
 * proposal's status or the number of votes changes. `powerOf` is undefined while unknown.
 */
export function useVotingPower(
  proposalId: string,
  addresses: string[],
  refreshOn: { status: ProposalStatus; votes: number },
) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const queries = useQueries({
    queries: addresses.map((address) => ({
      ...trpc.governance.votes.power.queryOptions({ proposalId, address }),
      retry: 1,
    })),
  });
  const seen = useRef(`${refreshOn.status}/${refreshOn.votes}`);
  useEffect(() => {
    // a snapshot taken, voting ended or a vote counted: the answers may differ now
    const now = `${refreshOn.status}/${refreshOn.votes}`;
    if (seen.current === now) return;
    seen.current = now;
    void queryClient.invalidateQueries({ queryKey: trpc.governance.votes.power.pathKey() });
  }, [queryClient, trpc, refreshOn.status, refreshOn.votes]);
  const byAddress = new Map<string, Power>();
  addresses.forEach((a, i) => {
    const data = queries[i]?.data;
    if (data) byAddress.set(a.toLowerCase(), data);
  });
  return {
    powerOf: (address: string) => byAddress.get(address.toLowerCase()),
    powers: addresses.flatMap((a) => byAddress.get(a.toLowerCase()) ?? []),
  };
}

type PowerToken = Pick<TokenRef, 'standard' | 'symbol' | 'decimals'>;

/**
 * governance.votes.power in a sentence of the page's language: "Your voting power: 100 GRDN at block 42"
 * when the address may vote, else why not (`reason` alone for the vote dialog).
 */
export function usePowerText() {
  const t = useTranslations('governance.power');
  const locale = useLocale();
  const reason = (r: PowerReason, token: PowerToken | null, minWeight?: string | null): string => {
    switch (r) {
      case 'NO_WEIGHT':
        if (!token) return t('NO_WEIGHT');
        return token.standard === 'erc20-votes'
          ? t('noDelegated', { symbol: token.symbol })
          : t('noHoldings', { symbol: token.symbol });
      case 'BELOW_MIN_WEIGHT': {
        const min =
          token && minWeight ? formatTokenAmount(minWeight, token.decimals, token.symbol, 4, locale) : null;
        return min
          ? t('belowMin', { min })
          : token
            ? t('belowMinOf', { symbol: token.symbol })
            : t('BELOW_MIN_WEIGHT');
      }
      default:
        return t(r);
    }
  };
  const power = (p: PowerView, token: PowerToken | null, minWeight: string | null) => {
    if (!p.eligible && p.reason) return reason(p.reason, token, minWeight);
    const amount = token
      ? formatTokenAmount(p.weight, token.decimals, token.symbol, 4, locale)
      : t('weight', { weight: formatWeight(p.weight, locale) });
    return t('yours', {
      amount,
      block: p.snapshotBlock?.number ?? '',
      hasBlock: p.snapshotBlock ? 'yes' : 'no',
      voted: p.hasVoted ? 'yes' : 'no',
    });
  };
  return { reason, power };
}

/** "Your voting power: 100 GRDN at block 42", or why not, for each of the addresses. */
export function VotingPowerList({
  powers,
  token,
  minWeight,
}: {
  powers: Power[];
  token: TokenRef | null;
  minWeight: string | null;
}) {
  const text = usePowerText();
  if (powers.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1 break-words" data-testid="voting-power-list">
      {powers.map((p) => (
        <li
          key={p.address}
          data-testid="voting-power"
          data-address={p.address}
          data-weight={p.weight}
          data-eligible={p.eligible}
          data-reason={p.reason ?? ''}
          className={p.eligible ? '' : 'text-muted-foreground'}
        >
          <span>{text.power(p, token, minWeight)}</span>{' '}
          <span className="text-sm text-muted-foreground" title={p.address}>
            ({shortAddress(p.address)})
          </span>
        </li>
      ))}
    </ul>
  );
}
