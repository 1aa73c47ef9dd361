'use client';
import { useQuery } from '@tanstack/react-query';
import { useApiUrl } from '../api-url';
import { useSessionToken } from '../session';
import { RestError, restJson } from './rest';

/** The caller's storage against the quota (issue 30, "Quotas"): `GET /ipfs/usage`. */
export interface StorageUsage {
  usedBytes: number;
  /** 0 (or null) = unlimited */
  limitBytes: number | null;
  pins: number;
  pendingPins: number;
}

export const USAGE_KEY = ['files', 'usage'] as const;

/**
 * Seam for the quota's usage route: the bar shows only when the server has it. On a server without
 * quotas the path falls to `GET /ipfs/{cid}` with "usage" as the CID (400 INVALID_CID), or to a 404;
 * either reads as "no usage to show" (null), not as a failure.
 */
export function useStorageUsage() {
  const apiUrl = useApiUrl();
  const token = useSessionToken();
  return useQuery({
    queryKey: [...USAGE_KEY, apiUrl, token],
    enabled: token !== null,
    retry: (count, err) => !(err instanceof RestError && err.status < 500) && count < 2,
    queryFn: async () => {
      try {
        return await restJson<StorageUsage>(`${apiUrl}/ipfs/usage`, token);
      } catch (err) {
        if (err instanceof RestError && (err.status === 404 || err.display.reason === 'INVALID_CID'))
          return null;
        throw err;
      }
    },
  });
}

/** the share of the quota used, 0–100 (rounded down, so 100 only when full); null when unlimited */
export function usedPercent(u: Pick<StorageUsage, 'usedBytes' | 'limitBytes'>): number | null {
  if (!u.limitBytes || u.limitBytes <= 0) return null;
  return Math.min(100, Math.floor((u.usedBytes / u.limitBytes) * 100));
}
