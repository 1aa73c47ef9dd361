'use client';
import { useQuery } from '@tanstack/react-query';
import { sameAddress } from '../governance/types';
import { useTRPC, useTRPCClient } from '../trpc';

const PAGE = 200;
const MAX_PAGES = 10;

/**
 * An address's own delegate statement in a DAO, for its editor: the API lists statements only in the
 * delegate list (docs/governance.md, "Reading delegations"), so its pages are read until the address
 * turns up (at most 2,000 delegates; beyond, the editor starts empty). "" when it has none.
 */
export function useStatementOf(daoId: string, address: string | undefined) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  return useQuery({
    queryKey: [...trpc.governance.delegates.list.queryKey({ daoId }), 'statementOf', address],
    enabled: !!address,
    queryFn: async () => {
      for (let page = 1; page <= MAX_PAGES; page++) {
        const list = await client.governance.delegates.list.query({ daoId, page, limit: PAGE });
        const found = list.items.find((d) => sameAddress(d.address, address));
        if (found) return found.statement ?? '';
        if (page >= list.pagination.totalPages) break;
      }
      return '';
    },
  });
}
