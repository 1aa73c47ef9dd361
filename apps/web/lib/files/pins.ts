'use client';
import type { AppRouter } from '@plenum/api';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useCallback } from 'react';
import { pollOrRecover } from '../query-client';
import { useTRPC } from '../trpc';

/** One of the caller's pins with its file metadata (`storage.myPins`). */
export type MyPin = inferRouterOutputs<AppRouter>['storage']['myPins']['items'][number];

export const PAGE_SIZE = 10;
export type StatusFilter = 'all' | MyPin['status'];

/**
 * The caller's pins, newest first, one page at a time, through the typed tRPC procedure. While a pin is
 * still being fetched by the node it turns pinned or failed in the background, so the page is read
 * again every 2 s until none is left pinning.
 */
export function usePins(params: { page: number; status: StatusFilter }) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.storage.myPins.queryOptions({
      page: params.page,
      limit: PAGE_SIZE,
      ...(params.status === 'all' ? {} : { status: params.status }),
    }),
    placeholderData: keepPreviousData,
    // while a pin is still pinning; and, as every read, again after a failure (lib/query-client.ts)
    refetchInterval: pollOrRecover((q) =>
      q.state.data?.items.some((p) => p.status === 'pinning') ? 2000 : false,
    ),
  });
}

/**
 * Reads every page of the pin list again (after an upload, a pin or an unpin). A first read still under
 * way began before the change: React Query would let it stand rather than start another (it only
 * replaces a fetch of a query that already has data), and the new pin would stay missing. So reads in
 * flight are cancelled first, then the pages are marked stale and the shown ones read again.
 */
export function useRefreshPins() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const queryKey = trpc.storage.myPins.pathKey();
    await queryClient.cancelQueries({ queryKey });
    await queryClient.invalidateQueries({ queryKey });
  }, [queryClient, trpc]);
}

export const fileUrl = (apiUrl: string, cid: string) => `${apiUrl}/ipfs/file/${encodeURIComponent(cid)}`;
