'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc';

/** The server's upload limits (system.info → uploads), read once per visit. */
export function useUploadLimits() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.system.info.queryOptions(), staleTime: 10 * 60_000, select: (i) => i.uploads });
}

/** The first public IPFS gateway the server is configured with (system.info → ipfsGateway), or null. */
export function useIpfsGateway() {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.system.info.queryOptions(),
    staleTime: 10 * 60_000,
    select: (i) => i.ipfsGateway,
  }).data;
}
