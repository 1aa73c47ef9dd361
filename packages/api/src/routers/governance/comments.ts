import {
  COMMENT_TYPED_DATA_SPEC,
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
  eip712CommentSchema,
  hideCommentInput,
  listCommentsInput,
  postCommentInput,
  unhideCommentInput,
} from '@plenum/validators';
import { z } from 'zod';
import { accessRefusal } from '../../policy';
import { activeProcedure, authedProcedure, publicProcedure, router } from '../../trpc';

const tags = ['governance: discussion'];
const writeErrors = { 403: ['NOT_COMMENT_AUTHOR'], 409: ['COMMENT_DELETED'] } as const;

/** Threads on proposals (docs/discussion.md). */
export const commentsRouter = router({
  // public: a comment is written by an active account's session or, with no session, by an EIP-712
  // signature of its wallet (docs/discussion.md, "Signed comments"); a session post keeps the rules of
  // every account write (policy.ts), the core checks the signature
  post: publicProcedure
    .meta({
      optionalAuth: true,
      openapi: {
        method: 'POST',
        path: '/proposals/{proposalId}/comments',
        tags,
        protect: false,
        summary: 'Comment on a proposal, or reply to a comment (session, or EIP-712 signature + timestamp)',
        description:
          'Members and token holders write, through a signed-in account acting for one of its wallets or, ' +
          "with no account, by the wallet's EIP-712 signature of `Comment` (GET /eip712/comment) sent with " +
          'authorAddress and timestamp. A signed message posts once (409 COMMENT_ALREADY_POSTED).',
      },
      successStatus: 201,
      errors: {
        400: ['REPLY_TOO_DEEP', 'PARENT_NOT_IN_PROPOSAL'],
        401: ['NOT_SIGNED_IN', 'INVALID_SIGNATURE', 'SIGNATURE_EXPIRED', 'SIGNATURE_FROM_FUTURE'],
        403: ['NOT_YOUR_ADDRESS', 'NOT_ELIGIBLE', 'WALLET_REQUIRED', 'EMAIL_NOT_VERIFIED'],
        409: ['COMMENT_ALREADY_POSTED'],
        503: ['CHAIN_UNAVAILABLE'],
      },
    })
    .input(postCommentInput)
    .output(commentSchema)
    .mutation(({ ctx, input }) => {
      const signed =
        input.signature !== undefined || input.timestamp !== undefined || input.authorAddress !== undefined;
      const refusal = signed ? null : accessRefusal(ctx.svc, ctx.principal, 'active');
      if (refusal) throw refusal;
      return postComment(ctx.svc, { principal: signed ? null : ctx.principal, ...input });
    }),

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

  typedData: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/eip712/comment',
        tags,
        protect: false,
        summary: 'EIP-712 domain and types of a signed comment (the domain of signed votes)',
      },
    })
    .input(z.void())
    .output(eip712CommentSchema)
    .query(() => COMMENT_TYPED_DATA_SPEC),

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
