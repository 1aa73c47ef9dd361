'use client';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { shortAddress } from '../../lib/governance/format';
import { type PowerView, type TokenRef, votingPowerText } from '../../lib/governance/token';
import type { ProposalStatus } from '../../lib/governance/types';
import { useTRPC } from '../../lib/trpc';

export type Power = PowerView & { address: string; member: boolean };

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
  if (powers.length === 0) return null;
  return (
    <ul className="power-list" data-testid="voting-power-list">
      {powers.map((p) => (
        <li
          key={p.address}
          data-testid="voting-power"
          data-address={p.address}
          data-weight={p.weight}
          data-eligible={p.eligible}
          data-reason={p.reason ?? ''}
          className={p.eligible ? '' : 'muted'}
        >
          <span>{votingPowerText(p, token, minWeight)}</span>{' '}
          <span className="address muted small" title={p.address}>
            ({shortAddress(p.address)})
          </span>
        </li>
      ))}
    </ul>
  );
}
