'use client';
import { replaceEqualDeep, useQuery } from '@tanstack/react-query';
import { pollOrRecover } from '../query-client';
import { useTRPC } from '../trpc';
import { newerResults } from './results-order';
import type { Results } from './types';

/**
 * A proposal's results, polled every `pollMs` unless the live stream keeps them current. Whatever
 * writes them (a read, a poll, an event) never replaces a later state with an earlier one.
 */
export function useResults(proposalId: string, opts: { pollMs: number | false; enabled?: boolean }) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.governance.votes.results.queryOptions({ proposalId }),
    refetchInterval: pollOrRecover(opts.pollMs),
    enabled: opts.enabled ?? true,
    structuralSharing: (old, next) =>
      replaceEqualDeep(old, newerResults(old as Results | undefined, next as Results)),
  });
}
