import { type Database, proposalCommentEdits, proposalComments, wallets } from '@plenum/db';
import { asc, eq } from 'drizzle-orm';
import type { Principal } from '../auth/sessions';
import { actingAs, authoritiesOf, can } from '../governance/dao-authority';
import { type DaoRow, requireDao } from '../governance/rows';
import type { Services } from '../services';
import { notFound } from '../shared/errors';
import { emitUpdated, findComment } from './write-comment';

/**
 * Hiding (docs/discussion.md, "Moderation"): the DAO's owner, admins and moderators (the `moderate` power
 * of docs/governance.md, "Roles") hide a comment with a reason, or unhide it; its text then shows to them
 * only. Emits `comment_updated`.
 */
export async function setCommentHidden(
  svc: Services,
  params: {
    principal: Principal;
    commentId: string;
    hidden: boolean;
    reason?: string;
    actorAddress?: string | undefined;
  },
) {
  const found = await findComment(svc.db, params.commentId);
  if (!found) throw notFound('Comment not found');
  const dao = await requireDao(svc.db, found.daoId);
  const actor = await actingAs(svc.db, {
    userId: params.principal.userId,
    dao,
    power: 'moderate',
    actorAddress: params.actorAddress,
  });
  return svc.db.transaction(async (tx) => {
    const [row] = await tx
      .update(proposalComments)
      .set(
        params.hidden
          ? { hiddenAt: svc.clock.now(), hiddenReason: params.reason ?? null, hiddenBy: actor.address }
          : { hiddenAt: null, hiddenReason: null, hiddenBy: null },
      )
      .where(eq(proposalComments.id, found.id))
      .returning();
    return emitUpdated(tx, row!, params.hidden ? 'hidden' : 'unhidden', true);
  });
}

/** GET /comments/{commentId}/edits: a comment's earlier bodies, oldest first; moderators of its DAO only */
export async function commentEdits(svc: Services, params: { principal: Principal; commentId: string }) {
  const found = await findComment(svc.db, params.commentId);
  if (!found) throw notFound('Comment not found');
  const dao = await requireDao(svc.db, found.daoId);
  await actingAs(svc.db, { userId: params.principal.userId, dao, power: 'moderate' });
  const rows = await svc.db
    .select()
    .from(proposalCommentEdits)
    .where(eq(proposalCommentEdits.commentId, found.id))
    .orderBy(asc(proposalCommentEdits.id));
  return { items: rows.map((r) => ({ body: r.body, editedAt: r.editedAt.toISOString() })) };
}

/** whether a reader (signed in or not) moderates the DAO through any of their wallets */
export async function readerModerates(db: Database, dao: DaoRow, principal: Principal | null) {
  if (!principal) return false;
  const mine = (
    await db.select({ address: wallets.address }).from(wallets).where(eq(wallets.userId, principal.userId))
  ).map((w) => w.address);
  const found = await authoritiesOf(db, dao, mine);
  return [...found.values()].some((a) => can(a, 'moderate'));
}
