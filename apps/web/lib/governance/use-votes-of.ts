'use client';
import { useQueries } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { useTRPC } from '../trpc';
import type { Vote } from './types';

const notFound = (err: unknown) =>
  err instanceof TRPCClientError && (err.data as { httpStatus?: number })?.httpStatus === 404;

/** The vote of each given address on a proposal (404 = has not voted → null). */
export function useVotesOf(proposalId: string, addresses: string[]) {
  const trpc = useTRPC();
  const queries = useQueries({
    queries: addresses.map((voterAddress) => ({
      ...trpc.governance.votes.byVoter.queryOptions({ proposalId, voterAddress }),
      retry: (count: number, err: unknown) => !notFound(err) && count < 1,
    })),
  });
  const byAddress = new Map<string, Vote | null>();
  addresses.forEach((a, i) => {
    const q = queries[i];
    if (q?.data) byAddress.set(a.toLowerCase(), q.data);
    else if (q?.isError && notFound(q.error)) byAddress.set(a.toLowerCase(), null);
  });
  return {
    loading: queries.some((q) => q.isPending),
    /** undefined while unknown, null when that address has not voted */
    voteOf: (address: string) => byAddress.get(address.toLowerCase()),
    votes: [...byAddress.values()].filter((v): v is Vote => v !== null),
  };
}
