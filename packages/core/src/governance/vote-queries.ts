import { votes } from '@plenum/db';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import type { Principal } from '../auth/sessions';
import type { Services } from '../services';
import { notFound } from '../shared/errors';
import { fetchPage, type Page } from '../shared/pagination';
import { voteCountOf } from './proposal-queries';
import { requireProposal } from './rows';
import { ensureCurrentStatus } from './status-automation';
import { voteViewFor } from './vote-visibility';

/** the proposal as it is now (a proposal past its end is finalized first, which reveals hidden results) */
const currentProposal = async (svc: Services, proposalId: string) =>
  ensureCurrentStatus(svc, await requireProposal(svc.db, proposalId));

/** GET /votes/{voteId}; `viewer` sees their own vote in full while results are hidden */
export async function getVote(svc: Services, params: { voteId: string; viewer?: Principal | null }) {
  const [v] = await svc.db.select().from(votes).where(eq(votes.id, params.voteId)).limit(1);
  if (!v) throw notFound('Vote not found');
  const view = await voteViewFor(svc, await currentProposal(svc, v.proposalId), params.viewer ?? null);
  return view(v);
}

/** GET /votes/proposal/{proposalId}: newest first */
export async function listVotes(
  svc: Services,
  params: Page & { proposalId: string; viewer?: Principal | null },
) {
  const view = await voteViewFor(svc, await currentProposal(svc, params.proposalId), params.viewer ?? null);
  const { rows, pagination } = await fetchPage(
    params,
    svc.db
      .select()
      .from(votes)
      .where(and(eq(votes.proposalId, params.proposalId), isNull(votes.replacedAt)))
      .orderBy(desc(votes.createdAt), desc(votes.id))
      .$dynamic(),
    voteCountOf(svc.db, params.proposalId),
  );
  return { items: rows.map(view), pagination };
}

/** GET /votes/proposal/{proposalId}/voter/{voterAddress}: 404 when that voter has not voted */
export async function getVoterVote(
  svc: Services,
  params: { proposalId: string; voterAddress: string; viewer?: Principal | null },
) {
  const voter = canonicalAddress(params.voterAddress, 'voterAddress');
  const view = await voteViewFor(svc, await currentProposal(svc, params.proposalId), params.viewer ?? null);
  const [v] = await svc.db
    .select()
    .from(votes)
    .where(
      and(eq(votes.proposalId, params.proposalId), eq(votes.voterAddress, voter), isNull(votes.replacedAt)),
    )
    .limit(1);
  if (!v) throw notFound(`${voter} has not voted on this proposal`);
  return view(v);
}
