import type { ProposalStatus, Results } from './types';

const STAGE: Record<ProposalStatus, number> = { PENDING: 0, ACTIVE: 1, PASSED: 2, REJECTED: 2, CANCELLED: 2 };

/** Two reads of one proposal may be a moment apart: the later stage of its life wins. */
export const laterStatus = (a: ProposalStatus, b: ProposalStatus | undefined) =>
  b && STAGE[b] > STAGE[a] ? b : a;

/**
 * Of two results of one proposal, the later. Results reach the cache from reads and from live events,
 * and a read answered before an event can arrive after it (a slow HTTP response, a fast WebSocket).
 * A proposal only moves forward through its stages and a vote is never withdrawn or changed, so the
 * later stage, then the larger number of votes, is the later state.
 */
export function newerResults(old: Results | undefined, next: Results): Results {
  if (!old) return next;
  const [was, is] = [STAGE[old.status], STAGE[next.status]];
  if (was !== is) return was > is ? old : next;
  return old.totalVotes > next.totalVotes ? old : next;
}
