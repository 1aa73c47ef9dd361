import { votes } from '@plenum/db';
import { and, desc, eq } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import type { Services } from '../services';
import { notFound } from '../shared/errors';
import { fetchPage, type Page } from '../shared/pagination';
import { voteCountOf } from './proposal-queries';
import { requireProposal } from './rows';
import { voteView } from './serialize';

export async function getVote(svc: Services, params: { voteId: string }) {
  const [v] = await svc.db.select().from(votes).where(eq(votes.id, params.voteId)).limit(1);
  if (!v) throw notFound('Vote not found');
  return voteView(v);
}

/** GET /votes/proposal/{proposalId}: newest first */
export async function listVotes(svc: Services, params: Page & { proposalId: string }) {
  await requireProposal(svc.db, params.proposalId);
  const { rows, pagination } = await fetchPage(
    params,
    svc.db
      .select()
      .from(votes)
      .where(eq(votes.proposalId, params.proposalId))
      .orderBy(desc(votes.createdAt), desc(votes.id))
      .$dynamic(),
    voteCountOf(svc.db, params.proposalId),
  );
  return { items: rows.map(voteView), pagination };
}

/** GET /votes/proposal/{proposalId}/voter/{voterAddress}: 404 when that voter has not voted */
export async function getVoterVote(svc: Services, params: { proposalId: string; voterAddress: string }) {
  const voter = canonicalAddress(params.voterAddress, 'voterAddress');
  await requireProposal(svc.db, params.proposalId);
  const [v] = await svc.db
    .select()
    .from(votes)
    .where(and(eq(votes.proposalId, params.proposalId), eq(votes.voterAddress, voter)))
    .limit(1);
  if (!v) throw notFound(`${voter} has not voted on this proposal`);
  return voteView(v);
}
