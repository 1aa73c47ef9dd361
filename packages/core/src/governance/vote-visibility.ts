import type { votes } from '@plenum/db';
import type { Principal } from '../auth/sessions';
import { walletAddressesOf } from '../auth/wallets';
import type { Services } from '../services';
import { resultsHidden } from './results';
import type { ProposalRow } from './rows';
import { hiddenVoteView, type VoteView, voteView } from './serialize';

type VoteRow = typeof votes.$inferSelect;

/** whether the proposal's results are hidden now (its rules hide them until the end and it is open) */
export function resultsHiddenNow(p: ProposalRow): boolean {
  return resultsHidden(p);
}

/**
 * How a viewer sees the votes of a proposal (docs/governance.md, "Hidden results"): in full, or, while
 * its DAO hides results until the end, without choice and signature except for the viewer's own votes
 * (any wallet of the signed-in account). `p` must be current (ensureCurrentStatus), so a proposal past
 * its end shows everything.
 */
export async function voteViewFor(
  svc: Services,
  p: ProposalRow,
  viewer: Principal | null,
): Promise<(v: VoteRow) => VoteView> {
  if (!resultsHiddenNow(p)) return voteView;
  const own = new Set(viewer ? await walletAddressesOf(svc.db, viewer.userId) : []);
  return (v) => (own.has(v.voterAddress) ? voteView(v) : hiddenVoteView(v));
}
