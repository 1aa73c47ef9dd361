import { type DbOrTx, proposalCommentEdits, proposalComments } from '@plenum/db';
import { MAX_COMMENT_DEPTH } from '@plenum/validators';
import { count, eq } from 'drizzle-orm';
import type { Principal } from '../auth/sessions';
import { appendEvents } from '../governance/event-log';
import { requireDao, requireProposal } from '../governance/rows';
import type { Services } from '../services';
import { badRequest, conflict, forbidden, notFound } from '../shared/errors';
import { type CommentRow, commentView } from './view';
import { commentingAddress } from './who-may-comment';

/**
 * POST /proposals/{proposalId}/comments (docs/discussion.md, "Writing"): the caller acts through a wallet
 * that may write in the DAO (403), within their rate limit (429); a reply's parent must be a comment of
 * the same proposal (400) no deeper than one reply (400 REPLY_TOO_DEEP). Emits `comment_posted`.
 */
export async function postComment(
  svc: Services,
  params: {
    principal: Principal;
    proposalId: string;
    body: string;
    parentId?: string | undefined;
    actorAddress?: string | undefined;
  },
) {
  const proposal = await requireProposal(svc.db, params.proposalId);
  const dao = await requireDao(svc.db, proposal.daoId);
  let depth = 0;
  if (params.parentId !== undefined) {
    const parent = await findComment(svc.db, params.parentId);
    if (!parent || parent.proposalId !== proposal.id)
      throw badRequest(
        'parentId is not a comment of this proposal',
        [{ path: 'parentId', message: 'must be a comment of the same proposal' }],
        'PARENT_NOT_IN_PROPOSAL',
      );
    if (parent.depth >= MAX_COMMENT_DEPTH)
      throw badRequest(
        `Replies nest ${MAX_COMMENT_DEPTH} levels at most: reply to the comment this one answers instead`,
        [{ path: 'parentId', message: 'is a reply to a reply: it takes no replies' }],
        'REPLY_TOO_DEEP',
      );
    depth = parent.depth + 1;
  }
  const author = await commentingAddress(svc, {
    userId: params.principal.userId,
    dao,
    proposal,
    actorAddress: params.actorAddress,
  });
  await svc.commentWrites.spend(params.principal.userId);
  return svc.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(proposalComments)
      .values({
        proposalId: proposal.id,
        daoId: proposal.daoId,
        parentId: params.parentId ?? null,
        depth,
        authorUserId: params.principal.userId,
        authorAddress: author,
        body: params.body,
      })
      .returning();
    const view = commentView(row!, { moderator: false, replyCount: 0 });
    await appendEvents(tx, {
      items: [
        { type: 'comment_posted', daoId: proposal.daoId, proposalId: proposal.id, data: { comment: view } },
      ],
    });
    return view;
  });
}

/** PATCH /comments/{commentId}: the author only; the body before is kept for moderators. */
export async function editComment(
  svc: Services,
  params: { principal: Principal; commentId: string; body: string },
) {
  await svc.commentWrites.spend(params.principal.userId);
  return changeOwn(
    svc,
    params,
    async (tx, row) => {
      const now = svc.clock.now();
      await tx.insert(proposalCommentEdits).values({ commentId: row.id, body: row.body, editedAt: now });
      return { body: params.body, editedAt: now };
    },
    'edited',
  );
}

/** DELETE /comments/{commentId}: the author only; a tombstone without its body keeps the thread. */
export async function deleteComment(svc: Services, params: { principal: Principal; commentId: string }) {
  await svc.commentWrites.spend(params.principal.userId);
  return changeOwn(svc, params, async () => ({ body: '', deletedAt: svc.clock.now() }), 'deleted');
}

async function changeOwn(
  svc: Services,
  params: { principal: Principal; commentId: string },
  change: (tx: DbOrTx, row: CommentRow) => Promise<Partial<CommentRow>>,
  kind: 'edited' | 'deleted',
) {
  return svc.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(proposalComments)
      .where(eq(proposalComments.id, params.commentId))
      .for('update')
      .limit(1);
    if (!row) throw notFound('Comment not found');
    if (row.authorUserId !== params.principal.userId)
      throw forbidden('Only its author can change a comment', 'NOT_COMMENT_AUTHOR');
    if (row.deletedAt) throw conflict('This comment was deleted', 'COMMENT_DELETED');
    const [updated] = await tx
      .update(proposalComments)
      .set(await change(tx, row))
      .where(eq(proposalComments.id, row.id))
      .returning();
    return emitUpdated(tx, updated!, kind);
  });
}

/** the `comment_updated` event with the public view (no hidden text), and the view the caller gets */
export async function emitUpdated(
  tx: DbOrTx,
  row: CommentRow,
  change: 'edited' | 'deleted' | 'hidden' | 'unhidden',
  moderator = false,
) {
  const replyCount = await repliesOf(tx, row.id);
  const view = commentView(row, { moderator: false, replyCount });
  await appendEvents(tx, {
    items: [
      {
        type: 'comment_updated',
        daoId: row.daoId,
        proposalId: row.proposalId,
        data: { comment: view, change },
      },
    ],
  });
  return moderator ? commentView(row, { moderator, replyCount }) : view;
}

async function repliesOf(db: DbOrTx, commentId: string) {
  const [r] = await db
    .select({ n: count() })
    .from(proposalComments)
    .where(eq(proposalComments.parentId, commentId));
  return Number(r?.n ?? 0);
}

export async function findComment(db: DbOrTx, commentId: string): Promise<CommentRow | null> {
  const [row] = await db.select().from(proposalComments).where(eq(proposalComments.id, commentId)).limit(1);
  return row ?? null;
}
