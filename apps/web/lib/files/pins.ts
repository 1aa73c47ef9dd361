'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApiUrl } from '../api-url';
import { useSessionToken } from '../session';
import { restJson } from './rest';

/** A pin as GET /pins (the Pinning Service API) describes it; `queued` is our `pinning`. */
export interface PinStatus {
  requestid: string;
  status: 'queued' | 'pinning' | 'pinned' | 'failed';
  created: string;
  pin: { cid: string; name?: string; meta?: Record<string, string> };
  info?: { status_details?: string; verified_at?: string };
}

export const PAGE_SIZE = 10;
export const ALL_STATUSES = ['queued', 'pinning', 'pinned', 'failed'] as const;
export type StatusFilter = 'all' | 'pinning' | 'pinned' | 'failed';

export const pinsQueryKey = ['files', 'pins'] as const;

/**
 * The caller's pins, newest first, one page at a time. The tRPC API has no "my pins" list, so this
 * reads the Pinning Service API (the SPEC's "GET /pins is how a caller lists their pins"), which pages
 * by `before` = the `created` time of the last pin of the previous page.
 */
export function usePins(params: { before: string | null; status: StatusFilter }) {
  const apiUrl = useApiUrl();
  const token = useSessionToken();
  return useQuery({
    queryKey: [...pinsQueryKey, token, params.status, params.before],
    enabled: token !== null,
    placeholderData: keepPreviousData,
    // a pin in progress turns pinned or failed in the background: look again until none is left
    refetchInterval: (q) =>
      q.state.data?.results.some((p) => p.status === 'pinning' || p.status === 'queued') ? 2000 : false,
    queryFn: () => {
      const q = new URLSearchParams({
        status: params.status === 'all' ? ALL_STATUSES.join(',') : params.status,
        limit: String(PAGE_SIZE),
      });
      if (params.before) q.set('before', params.before);
      return restJson<{ count: number; results: PinStatus[] }>(`${apiUrl}/pins?${q}`, token);
    },
  });
}

export const fileUrl = (apiUrl: string, cid: string) => `${apiUrl}/ipfs/file/${encodeURIComponent(cid)}`;
