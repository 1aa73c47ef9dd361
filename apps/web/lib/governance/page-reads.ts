import type { VoteSort } from '@plenum/validators';
import type { DaoStatus, ProposalStatus } from './types';

/**
 * The inputs of the reads a public page makes first, shared by the client components and the server's
 * prefetch (lib/prefetch.tsx): a prefetched answer is used only under the very same query key.
 */
export const DIRECTORY_PAGE_SIZE = 20;
/** `q`: the search box's text (?q=), sent trimmed and only when there is some */
export const directoryInput = (page: number, status: DaoStatus | '', q = '') => ({
  page,
  limit: DIRECTORY_PAGE_SIZE,
  ...(status ? { status } : {}),
  ...(q.trim() ? { q: q.trim().slice(0, 100) } : {}),
});

/** the DAO page's proposal tabs open on Active */
export const FIRST_TAB_STATUS: ProposalStatus = 'ACTIVE';
export const proposalTabInput = (daoId: string, page: number, status: ProposalStatus | undefined) => ({
  daoId,
  page,
  limit: 20,
  ...(status ? { status } : {}),
});

export const membersInput = (daoId: string, page: number) => ({ daoId, page, limit: 20 });

export const votesInput = (proposalId: string, page: number, sort: VoteSort, choice: string) => ({
  proposalId,
  page,
  limit: 25,
  sort,
  ...(choice ? { choice } : {}),
});
