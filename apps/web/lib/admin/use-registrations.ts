'use client';
import { useQuery } from '@tanstack/react-query';
import { useTRPCClient } from '../trpc';
import { countByDay, windowStart } from './registrations';

export const CHART_DAYS = 30;
const PAGE = 200;
/** at most this many users are read for the chart; beyond it the chart says it is partial */
const MAX_PAGES = 10;

/**
 * Registrations per day over the last 30 days. The API's statistics give only this month's total, so
 * the chart reads the admin user list (newest first) until it passes the window's start.
 */
export function useRegistrations() {
  const client = useTRPCClient();
  return useQuery({
    queryKey: ['admin', 'registrations', CHART_DAYS],
    staleTime: 60_000,
    queryFn: async () => {
      const now = new Date();
      const start = windowStart(CHART_DAYS, now);
      const createdAt: string[] = [];
      let complete = false;
      for (let page = 1; page <= MAX_PAGES; page++) {
        const { users, pagination } = await client.adminUsers.list.query({ page, limit: PAGE });
        createdAt.push(...users.map((u) => u.createdAt));
        const oldest = users.at(-1);
        if (!oldest || Date.parse(oldest.createdAt) < start || page >= pagination.totalPages) {
          complete = true;
          break;
        }
      }
      return { days: countByDay(createdAt, CHART_DAYS, now), complete };
    },
  });
}
