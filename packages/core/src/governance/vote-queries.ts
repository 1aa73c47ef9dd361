import { votes } from '@plenum/db';
import { and, count, eq, getTableColumns, isNull } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import type { Principal } from '../auth/sessions';
import type { Services } from '../services';
import { afterKey, cursorTime, decodeCursor, encodeCursor, type KeyPart } from '../shared/cursor';
import { conflict, notFound } from '../shared/errors';
import { type CursorPage, fetchCursorPage } from '../shared/pagination';
import { voteCountOf } from './proposal-queries';
import { requireProposal } from './rows';
import { ensureCurrentStatus } from './status-automation';
import {
  resolveChoiceOption,
  supportsOption,
  type VoteSort,
  voteKeyColumns,
  voteOrder,
} from './vote-filters';
import { resultsHiddenNow, voteViewFor } from './vote-visibility';

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

/**
 * GET /votes/proposal/{proposalId}: the counted votes, newest first unless `sort` says otherwise, only those
 * supporting `choice` when given (docs/governance.md, "Listing the votes"). While the results are hidden
 * a choice filter would tell the hidden choices: 409 RESULTS_HIDDEN, as for the export. By `page` or after a
 * cursor of the same proposal and order (docs/api.md, "Lists").
 */
export async function listVotes(
  svc: Services,
  params: CursorPage & { proposalId: string; choice?: string; sort?: VoteSort; viewer?: Principal | null },
) {
  const sort = params.sort ?? 'newest';
  const list = `votes:${params.proposalId}:${sort}`;
  const keyParts: KeyPart[] = sort === 'weight' ? ['decimal', 'time', 'uuid'] : ['time', 'uuid'];
  // a bad cursor is refused before any other work
  const afterValues = params.after === undefined ? undefined : decodeCursor(list, params.after, keyParts);
  const p = await currentProposal(svc, params.proposalId);
  const option = params.choice === undefined ? null : resolveChoiceOption(p, params.choice);
  if (option !== null && resultsHiddenNow(p))
    throw conflict('Votes cannot be filtered by choice while the results are hidden', 'RESULTS_HIDDEN');
  const view = await voteViewFor(svc, p, params.viewer ?? null);
  const where = and(
    eq(votes.proposalId, params.proposalId),
    isNull(votes.replacedAt),
    option === null ? undefined : supportsOption(p, option),
  );
  const after =
    afterValues && afterKey(voteKeyColumns(sort), afterValues, keyParts, sort === 'oldest' ? 'asc' : 'desc');
  const { rows, pagination } = await fetchCursorPage(
    params,
    svc.db
      .select({ ...getTableColumns(votes), cursorAt: cursorTime(votes.createdAt) })
      .from(votes)
      .where(and(where, after))
      .orderBy(...voteOrder(sort))
      .$dynamic(),
    // unfiltered, the count comes from the running tallies instead of the votes table
    option === null
      ? voteCountOf(svc.db, params.proposalId)
      : svc.db.select({ n: count() }).from(votes).where(where),
    (v) => encodeCursor(list, sort === 'weight' ? [v.weight, v.cursorAt, v.id] : [v.cursorAt, v.id]),
  );
  return { items: rows.map(({ cursorAt: _, ...v }) => view(v)), pagination };
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
