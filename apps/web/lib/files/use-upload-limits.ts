'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc';

/** The server's upload limits (system.info → uploads), read once per visit. */
export function useUploadLimits() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.system.info.queryOptions(), staleTime: 10 * 60_000, select: (i) => i.uploads });
}
