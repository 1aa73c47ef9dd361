import {
  commentEdits,
  deleteComment,
  editComment,
  listComments,
  postComment,
  setCommentHidden,
} from '@plenum/core';
import {
  commentEditsSchema,
  commentIdInput,
  commentSchema,
  commentThreadSchema,
  editCommentInput,
  hideCommentInput,
  listCommentsInput,
  postCommentInput,
  unhideCommentInput,
} from '@plenum/validators';
import { activeProcedure, authedProcedure, publicProcedure, router } from '../../trpc';

const tags = ['governance: discussion'];
const writeErrors = { 403: ['NOT_COMMENT_AUTHOR'], 409: ['COMMENT_DELETED'] } as const;

/** Threads on proposals (docs/discussion.md). */
export const commentsRouter = router({
  post: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/proposals/{proposalId}/comments',
        tags,
        summary: 'Comment on a proposal, or reply to a comment (members and token holders)',
      },
      successStatus: 201,
      errors: {
        400: ['REPLY_TOO_DEEP', 'PARENT_NOT_IN_PROPOSAL'],
        403: ['NOT_YOUR_ADDRESS', 'NOT_ELIGIBLE', 'WALLET_REQUIRED'],
        503: ['CHAIN_UNAVAILABLE'],
      },
    })
    .input(postCommentInput)
    .output(commentSchema)
    .mutation(({ ctx, input }) => postComment(ctx.svc, { principal: ctx.principal, ...input })),

  list: publicProcedure
    .meta({
      optionalAuth: true,
      openapi: {
        method: 'GET',
        path: '/proposals/{proposalId}/comments',
        tags,
        protect: false,
        summary: "A proposal's discussion: top-level comments by page, each with its replies",
      },
    })
    .input(listCommentsInput)
    .output(commentThreadSchema)
    .query(({ ctx, input }) => listComments(ctx.svc, { ...input, viewer: ctx.principal })),

  edit: activeProcedure
    .meta({
      openapi: { method: 'PATCH', path: '/comments/{commentId}', tags, summary: 'Edit your comment' },
      errors: writeErrors,
    })
    .input(editCommentInput)
    .output(commentSchema)
    .mutation(({ ctx, input }) => editComment(ctx.svc, { principal: ctx.principal, ...input })),

  delete: activeProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/comments/{commentId}',
        tags,
        summary: 'Delete your comment (a tombstone keeps its replies in place)',
      },
      errors: writeErrors,
    })
    .input(commentIdInput)
    .output(commentSchema)
    .mutation(({ ctx, input }) => deleteComment(ctx.svc, { principal: ctx.principal, ...input })),

  hide: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/comments/{commentId}/hide',
        tags,
        summary: "Hide a comment with a reason (the DAO's owner, admins and moderators)",
      },
      errors: { 403: ['NOT_DAO_ADMIN', 'NOT_YOUR_ADDRESS', 'WALLET_REQUIRED'] },
    })
    .input(hideCommentInput)
    .output(commentSchema)
    .mutation(({ ctx, input }) =>
      setCommentHidden(ctx.svc, { principal: ctx.principal, ...input, hidden: true }),
    ),

  unhide: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/comments/{commentId}/unhide',
        tags,
        summary: "Show a hidden comment again (the DAO's owner, admins and moderators)",
      },
      errors: { 403: ['NOT_DAO_ADMIN', 'NOT_YOUR_ADDRESS', 'WALLET_REQUIRED'] },
    })
    .input(unhideCommentInput)
    .output(commentSchema)
    .mutation(({ ctx, input }) =>
      setCommentHidden(ctx.svc, { principal: ctx.principal, ...input, hidden: false }),
    ),

  edits: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/comments/{commentId}/edits',
        tags,
        summary: "A comment's earlier bodies (the DAO's owner, admins and moderators)",
      },
      errors: { 403: ['NOT_DAO_ADMIN', 'WALLET_REQUIRED'] },
    })
    .input(commentIdInput)
    .output(commentEditsSchema)
    .query(({ ctx, input }) => commentEdits(ctx.svc, { principal: ctx.principal, ...input })),
});
