import { type DbOrTx, proposalCommentEdits, proposalComments, wallets } from '@plenum/db';
import { and, count, eq } from 'drizzle-orm';
import type { Principal } from '../auth/sessions';
import { appendEvents } from '../governance/event-log';
import type { Services } from '../services';
import { conflict, forbidden, notFound } from '../shared/errors';
import { type CommentRow, commentView } from './view';

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
    if (!(await isAuthor(tx, row, params.principal.userId)))
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

/**
 * The author of a comment: the account that posted it, or, for a signed comment, the account that holds
 * its wallet now (docs/discussion.md, "Signed comments": a wallet owner signs in to edit or delete).
 */
async function isAuthor(tx: DbOrTx, row: CommentRow, userId: string) {
  if (row.authorUserId === userId) return true;
  if (row.signature === null) return false;
  const [mine] = await tx
    .select({ address: wallets.address })
    .from(wallets)
    .where(and(eq(wallets.address, row.authorAddress), eq(wallets.userId, userId)))
    .limit(1);
  return Boolean(mine);
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
