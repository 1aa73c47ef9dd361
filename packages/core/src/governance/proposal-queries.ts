import type { DbOrTx, ProposalStatus } from '@plenum/db';
import { proposals, proposalTallies, votes } from '@plenum/db';
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Principal } from '../auth/sessions';
import type { Services } from '../services';
import { offsetOf, type Page, paginationOf } from '../shared/pagination';
import { requireDao, requireProposal } from './rows';
import { proposalSummaryView } from './serialize';
import { advanceDueOfDao, ensureCurrentStatus } from './status-automation';
import { DECIDED_KEY, VOTERS_KEY } from './system-tallies';
import { voteViewFor } from './vote-visibility';

/**
 * number of votes from the tally rows (never a count over the votes table): the ' voters' rows where the
 * system keeps them (a ballot may support several options), else one row per option or ranking
 */
export async function voteCountOf(db: DbOrTx, proposalId: string): Promise<number> {
  const t = proposalTallies;
  const [row] = await db
    .select({
      n: sql<string>`coalesce(sum(${t.votes}) filter (where ${t.option} = ${VOTERS_KEY}),
        sum(${t.votes}) filter (where ${t.option} <> ${DECIDED_KEY}), 0)::text`,
    })
    .from(proposalTallies)
    .where(eq(proposalTallies.proposalId, proposalId));
  return Number(row?.n ?? 0);
}

/**
 * GET /proposals/{proposalId}: the proposal (docs/governance.md, "Proposals") with its 50 newest votes and
 * voteCount
 */
export async function getProposal(svc: Services, params: { proposalId: string; viewer?: Principal | null }) {
  const p = await ensureCurrentStatus(svc, await requireProposal(svc.db, params.proposalId));
  const [view, recent, voteCount] = await Promise.all([
    voteViewFor(svc, p, params.viewer ?? null),
    svc.db
      .select()
      .from(votes)
      .where(and(eq(votes.proposalId, p.id), isNull(votes.replacedAt)))
      .orderBy(desc(votes.createdAt), desc(votes.id))
      .limit(50),
    voteCountOf(svc.db, p.id),
  ]);
  return { ...proposalSummaryView(p), votes: recent.map(view), voteCount };
}

/**
 * GET /proposals/dao/{daoId} (optionally by status) and /active: newest first, current statuses. The page's
 * ids are found in the index first and only their rows read (a deferred join), so a deep page skips index
 * entries, not rows (docs/architecture.md, "Lists at scale").
 */
export async function listProposals(
  svc: Services,
  params: Page & { daoId: string; status?: ProposalStatus | undefined },
) {
  await requireDao(svc.db, params.daoId);
  await advanceDueOfDao(svc, params.daoId);
  const where = params.status
    ? and(eq(proposals.daoId, params.daoId), eq(proposals.status, params.status))
    : eq(proposals.daoId, params.daoId);
  const order = [desc(proposals.createdAt), desc(proposals.id)];
  const pageIds = svc.db
    .select({ id: proposals.id })
    .from(proposals)
    .where(where)
    .orderBy(...order)
    .limit(params.limit)
    .offset(offsetOf(params));
  const [rows, [total]] = await Promise.all([
    svc.db
      .select()
      .from(proposals)
      .where(inArray(proposals.id, pageIds))
      .orderBy(...order),
    svc.db.select({ n: count() }).from(proposals).where(where),
  ]);
  return { items: rows.map(proposalSummaryView), pagination: paginationOf(params, Number(total?.n ?? 0)) };
}
