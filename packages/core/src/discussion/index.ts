export { commentEdits, setCommentHidden } from './moderation';
export { listComments } from './thread';
export { deleteComment, editComment, postComment } from './write-comment';
