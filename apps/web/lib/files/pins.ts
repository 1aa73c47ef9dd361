'use client';
import type { AppRouter } from '@plenum/api';
import type { MyPinsSort } from '@plenum/validators';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useCallback } from 'react';
import { pollOrRecover } from '../query-client';
import { useTRPC } from '../trpc';

/** One of the caller's pins with its file metadata (`storage.myPins`). */
export type MyPin = inferRouterOutputs<AppRouter>['storage']['myPins']['items'][number];

export const PAGE_SIZE = 10;
export type StatusFilter = 'all' | MyPin['status'];
export const SORTS: MyPinsSort[] = ['newest', 'oldest', 'name', 'size'];

/**
 * The caller's pins, one page at a time, searched (`q`: name, file name, CID, meta values) and sorted on
 * the server, through the typed tRPC procedure. While a pin is still being fetched by the node it turns
 * pinned or failed in the background, so the page is read again every 2 s until none is left pinning.
 */
export function usePins(params: { page: number; status: StatusFilter; q: string; sort: MyPinsSort }) {
  const trpc = useTRPC();
  const q = params.q.trim();
  return useQuery({
    ...trpc.storage.myPins.queryOptions({
      page: params.page,
      limit: PAGE_SIZE,
      sort: params.sort,
      ...(params.status === 'all' ? {} : { status: params.status }),
      ...(q ? { q } : {}),
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
    await queryClient.invalidateQueries({ queryKey: trpc.storage.usage.pathKey() });
  }, [queryClient, trpc]);
}

export const fileUrl = (apiUrl: string, cid: string) => `${apiUrl}/ipfs/file/${encodeURIComponent(cid)}`;

/** a public gateway's path to a CID (`{gateway}/ipfs/{cid}`), as the API resolves metadata images */
export const gatewayUrl = (gateway: string, cid: string) =>
  `${gateway.replace(/\/+$/, '')}/ipfs/${encodeURIComponent(cid)}`;

/** the JSON documents a pin may be: text (a JSON file is detected as text/plain) or not yet known */
export const mayBeJson = (pin: MyPin) => {
  const type = pin.metadata.mimetype?.split(';')[0]?.trim().toLowerCase();
  return type === undefined || type === 'text/plain' || type === 'application/json';
};
