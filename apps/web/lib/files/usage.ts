'use client';
import type { AppRouter } from '@plenum/api';
import { useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useTRPC } from '../trpc';

/** The caller's storage against the quota (`storage.usage`; docs/storage.md, "Quotas"). */
export type StorageUsage = inferRouterOutputs<AppRouter>['storage']['usage'];

/** The caller's usage, read through the typed tRPC procedure. */
export function useStorageUsage() {
  const trpc = useTRPC();
  return useQuery(trpc.storage.usage.queryOptions());
}

/** the share of the quota used, 0–100 (rounded down, so 100 only when full); null when unlimited */
export function usedPercent(u: Pick<StorageUsage, 'usedBytes' | 'limitBytes'>): number | null {
  if (!u.limitBytes || u.limitBytes <= 0) return null;
  return Math.min(100, Math.floor((u.usedBytes / u.limitBytes) * 100));
}
