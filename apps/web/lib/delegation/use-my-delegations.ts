'use client';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useMyWallets } from '../governance/use-my-wallets';
import { useTRPC } from '../trpc';
import { useWalletAddress } from '../use-injected-wallet';

export interface MyDelegation {
  /** one of my linked wallets, or the connected browser wallet (`linked` false) */
  wallet: string;
  linked: boolean;
  /** whom it delegates to in the DAO; null when nobody */
  delegate: string | null;
  /** how many delegate to it */
  delegators: number;
  /** the token's own delegate read from the chain (erc20-votes DAOs); null otherwise or unknown */
  chainDelegate: string | null;
}

/**
 * Whom each of my addresses delegates to in a DAO (governance.delegates.of per address: my linked wallets
 * and a connected browser wallet that is not one of them), and `refresh` after a change.
 */
export function useMyDelegations(daoId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const mine = useMyWallets();
  const connected = useWalletAddress();
  const addresses = [...mine.wallets];
  if (connected && !mine.isMine(connected)) addresses.push(connected);
  const queries = useQueries({
    queries: addresses.map((address) => ({
      ...trpc.governance.delegates.of.queryOptions({ daoId, address, limit: 1 }),
      retry: 1,
    })),
  });
  const delegations: MyDelegation[] = addresses.flatMap((wallet, i) => {
    const data = queries[i]?.data;
    if (!data) return [];
    return [
      {
        wallet,
        linked: mine.isMine(wallet),
        delegate: data.delegate?.delegateAddress ?? null,
        delegators: data.delegators.total,
        chainDelegate: data.chainDelegate,
      },
    ];
  });
  const refresh = () =>
    Promise.all(
      [trpc.governance.delegates.of.pathKey(), trpc.governance.delegates.list.pathKey()].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
  return {
    delegations,
    loading: mine.loading || queries.some((q) => q.isPending),
    error: queries.find((q) => q.isError) ?? null,
    refresh,
  };
}
