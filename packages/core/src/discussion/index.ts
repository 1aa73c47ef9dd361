export { commentEdits, setCommentHidden } from './moderation';
export { postComment } from './post-comment';
export {
  COMMENT_TYPED_DATA_SPEC,
  COMMENT_TYPES,
  type CommentMessage,
  commentTypedDataOf,
} from './signed-comment';
export { listComments } from './thread';
export { deleteComment, editComment } from './write-comment';
