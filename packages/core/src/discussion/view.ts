import type { proposalComments } from '@plenum/db';
import type { CommentView } from '@plenum/validators';

export type CommentRow = typeof proposalComments.$inferSelect;

/**
 * A comment as a reader sees it (docs/discussion.md, "Reading"): a tombstone has no body; a hidden comment
 * shows as hidden with its reason, and its text only to the DAO's moderators.
 */
export function commentView(
  row: CommentRow,
  params: { moderator: boolean; replyCount: number },
): CommentView {
  const deleted = row.deletedAt !== null;
  const hidden = row.hiddenAt !== null;
  return {
    id: row.id,
    proposalId: row.proposalId,
    parentId: row.parentId,
    depth: row.depth,
    authorAddress: row.authorAddress,
    body: deleted || (hidden && !params.moderator) ? null : row.body,
    createdAt: row.createdAt.toISOString(),
    edited: row.editedAt !== null,
    editedAt: row.editedAt?.toISOString() ?? null,
    deleted,
    hidden,
    hiddenReason: hidden ? row.hiddenReason : null,
    replyCount: params.replyCount,
  };
}
