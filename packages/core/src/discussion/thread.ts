import { proposalComments } from '@plenum/db';
import type { ThreadComment } from '@plenum/validators';
import { and, asc, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Principal } from '../auth/sessions';
import { requireDao, requireProposal } from '../governance/rows';
import type { Services } from '../services';
import { offsetOf, type Page, paginationOf } from '../shared/pagination';
import { readerModerates } from './moderation';
import type { CommentRow } from './view';
import { commentView } from './view';

/**
 * GET /proposals/{proposalId}/comments (docs/discussion.md, "Reading"): a page of top-level comments,
 * newest or oldest first, each with its replies (two levels) oldest first, and the thread's counts.
 * Public; a moderator of the DAO also reads hidden text.
 */
export async function listComments(
  svc: Services,
  params: Page & { proposalId: string; order: 'newest' | 'oldest'; viewer: Principal | null },
) {
  const proposal = await requireProposal(svc.db, params.proposalId);
  const dao = await requireDao(svc.db, proposal.daoId);
  const moderator = await readerModerates(svc.db, dao, params.viewer);
  const top = and(eq(proposalComments.proposalId, proposal.id), isNull(proposalComments.parentId));
  const by = params.order === 'newest' ? desc : asc;
  const [roots, [all], [tops]] = await Promise.all([
    svc.db
      .select()
      .from(proposalComments)
      .where(top)
      .orderBy(by(proposalComments.createdAt), by(proposalComments.id))
      .limit(params.limit)
      .offset(offsetOf(params)),
    svc.db.select({ n: count() }).from(proposalComments).where(eq(proposalComments.proposalId, proposal.id)),
    svc.db.select({ n: count() }).from(proposalComments).where(top),
  ]);
  const replies = await childrenOf(
    svc,
    roots.map((r) => r.id),
  );
  const grand = await childrenOf(
    svc,
    replies.map((r) => r.id),
  );
  const kids = new Map<string, CommentRow[]>();
  for (const r of [...replies, ...grand]) kids.set(r.parentId!, [...(kids.get(r.parentId!) ?? []), r]);
  const view = (r: CommentRow) => commentView(r, { moderator, replyCount: kids.get(r.id)?.length ?? 0 });
  const items: ThreadComment[] = roots.map((root) => ({
    ...view(root),
    replies: (kids.get(root.id) ?? []).map((reply) => ({
      ...view(reply),
      replies: (kids.get(reply.id) ?? []).map(view),
    })),
  }));
  const topLevel = Number(tops?.n ?? 0);
  return {
    items,
    pagination: paginationOf(params, topLevel),
    counts: { comments: Number(all?.n ?? 0), topLevel },
    moderator,
  };
}

async function childrenOf(svc: Services, parentIds: string[]): Promise<CommentRow[]> {
  if (!parentIds.length) return [];
  return svc.db
    .select()
    .from(proposalComments)
    .where(inArray(proposalComments.parentId, parentIds))
    .orderBy(asc(proposalComments.createdAt), asc(proposalComments.id));
}
