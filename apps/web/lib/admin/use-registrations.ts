'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc';

export const CHART_DAYS = 30;

/** Registrations per UTC day over the last 30 days, counted by the API in one grouped query. */
export function useRegistrations() {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.adminUsers.registrations.queryOptions({ days: CHART_DAYS }),
    staleTime: 60_000,
  });
}
