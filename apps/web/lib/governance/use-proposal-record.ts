'use client';
import { useQuery } from '@tanstack/react-query';
import { pollOrRecover } from '../query-client';
import { useTRPC } from '../trpc';

/** while the record is fixed but not yet on the IPFS node: it is published within seconds of the close */
const UNPUBLISHED_POLL_MS = 3_000;

/**
 * A closed proposal's record (GET /proposals/{proposalId}/record), read once the proposal has a
 * `recordCid` (fixed when it closes) and again until the server's IPFS node holds it (`publishedAt`).
 * Shared by the record section and the voter's receipts: one request for both.
 */
export function useProposalRecord(proposalId: string, recordCid: string | null | undefined) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.governance.proposals.record.queryOptions({ proposalId }),
    enabled: !!recordCid,
    refetchInterval: pollOrRecover((query) =>
      query.state.data && !query.state.data.publishedAt ? UNPUBLISHED_POLL_MS : false,
    ),
  });
}
