'use client';
import type { QueryKey } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSessionToken } from './session';

/**
 * Reads whose answer depends on who asks (a private profile, hidden votes) come from the server as an
 * anonymous visitor's (lib/prefetch.tsx): a signed-in visitor reads them again as themself once hydrated.
 */
export function useViewerReads(keys: QueryKey[]) {
  const queryClient = useQueryClient();
  const token = useSessionToken();
  // once per session (the keys are the same on every render)
  useEffect(() => {
    if (!token) return;
    for (const queryKey of keys) {
      // only answers already there (handed over by the server); a read still to come is made as the viewer
      const had = queryClient.getQueriesData({ queryKey }).some(([, data]) => data !== undefined);
      if (had) void queryClient.invalidateQueries({ queryKey });
    }
  }, [token, queryClient]);
}
