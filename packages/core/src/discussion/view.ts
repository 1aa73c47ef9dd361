import type { proposalComments } from '@plenum/db';
import type { CommentView } from '@plenum/validators';
import { commentTypedDataOf } from './signed-comment';

export type CommentRow = typeof proposalComments.$inferSelect;

/**
 * A comment as a reader sees it (docs/discussion.md, "Reading"): a tombstone has no body; a hidden comment
 * shows as hidden with its reason, and its text only to the DAO's moderators; a signed comment carries
 * its signature and typed data while its signed text shows unchanged ("Signed comments").
 */
export function commentView(
  row: CommentRow,
  params: { moderator: boolean; replyCount: number },
): CommentView {
  const deleted = row.deletedAt !== null;
  const hidden = row.hiddenAt !== null;
  const body = deleted || (hidden && !params.moderator) ? null : row.body;
  // the signed text exactly as signed, while the reader sees it and no edit has replaced it
  const signed = row.signature !== null && row.signedTimestamp !== null && body !== null && !row.editedAt;
  return {
    id: row.id,
    proposalId: row.proposalId,
    parentId: row.parentId,
    depth: row.depth,
    authorAddress: row.authorAddress,
    body,
    createdAt: row.createdAt.toISOString(),
    edited: row.editedAt !== null,
    editedAt: row.editedAt?.toISOString() ?? null,
    deleted,
    hidden,
    hiddenReason: hidden ? row.hiddenReason : null,
    replyCount: params.replyCount,
    signature: signed ? row.signature : null,
    typedData: signed
      ? commentTypedDataOf({
          proposalId: row.proposalId,
          parentId: row.parentId ?? '',
          body: row.body,
          authorAddress: row.authorAddress,
          timestamp: row.signedTimestamp!,
        })
      : null,
  };
}
