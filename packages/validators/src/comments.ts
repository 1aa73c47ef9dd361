import { z } from 'zod';
import { address, isoDateTime, pageQuery, paginationSchema } from './common';
import { coded } from './issue-codes';

/** Discussion threads on proposals (docs/discussion.md); shared by the routers, the web form and the tests. */

export const MAX_COMMENT_LENGTH = 10_000;
/** 0 is top level: a reply to a reply (depth 2) takes no replies */
export const MAX_COMMENT_DEPTH = 2;

const id = z.uuid();
const body = z
  .string()
  .min(1)
  .max(MAX_COMMENT_LENGTH)
  .refine((s) => s.trim().length > 0, { message: 'must not be blank' })
  .meta({ description: 'markdown, stored as given and rendered sanitized' });
const actorAddress = address.optional().meta({
  description: "the caller's wallet to act through; default: the caller's first wallet that may do this",
});

export const COMMENT_ORDER = z.enum(['newest', 'oldest']);

export const postCommentInput = z.strictObject({
  proposalId: id,
  body,
  parentId: id.optional().meta({ description: 'the comment this replies to, in the same proposal' }),
  actorAddress,
  // a signed comment (docs/discussion.md, "Signed comments"): all three, and no session needed
  authorAddress: address.optional().meta({
    description: 'the signing wallet of a signed comment (only with signature and timestamp)',
  }),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/, coded('invalid_hex', 'must be 0x-prefixed hex'))
    .max(1_000)
    .optional()
    .meta({ description: "EIP-712 signature of authorAddress's wallet (GET /eip712/comment)" }),
  // a JSON body: never coerced (the identity transform keeps "1" a 400, as governance.ts's `exact`)
  timestamp: z
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .transform((v) => v)
    .optional()
    .meta({ description: 'Unix seconds, as signed (only with signature)' }),
});
export const commentIdInput = z.strictObject({ commentId: id });
export const editCommentInput = z.strictObject({ commentId: id, body });
export const hideCommentInput = z.strictObject({
  commentId: id,
  reason: z.string().trim().min(1).max(1_000),
  actorAddress,
});
export const unhideCommentInput = z.strictObject({ commentId: id, actorAddress });
export const listCommentsInput = z.strictObject({
  proposalId: id,
  order: COMMENT_ORDER.default('oldest').meta({
    description: 'of the top-level comments; replies are oldest first',
  }),
  ...pageQuery,
});

const typedField = z.object({ name: z.string(), type: z.string() });
/** GET /eip712/comment: what a wallet signs for a signed comment (docs/discussion.md, "Signed comments") */
export const eip712CommentSchema = z
  .object({
    domain: z.object({ name: z.string(), version: z.string() }),
    primaryType: z.literal('Comment'),
    types: z.record(z.string(), z.array(typedField)),
  })
  .meta({ id: 'Eip712Comment' });

export const signedCommentTypedDataSchema = eip712CommentSchema
  .extend({
    message: z.object({
      proposalId: z.string(),
      /** "" for a top-level comment */
      parentId: z.string(),
      body: z.string(),
      authorAddress: z.string(),
      timestamp: z.number().int(),
    }),
  })
  .meta({ id: 'SignedCommentTypedData' });

const commentBase = {
  id: z.string(),
  proposalId: z.string(),
  parentId: z.string().nullable(),
  depth: z.number().int(),
  authorAddress: z.string(),
  /** null for a tombstone, and for a hidden comment unless the reader moderates the DAO */
  body: z.string().nullable(),
  createdAt: isoDateTime,
  edited: z.boolean(),
  editedAt: isoDateTime.nullable(),
  deleted: z.boolean(),
  hidden: z.boolean(),
  hiddenReason: z.string().nullable(),
  replyCount: z.number().int(),
  /**
   * a signed comment's signature and the typed data it signed, to verify offline; null for a session
   * comment, and once the signed text is gone or changed (deleted, edited) or hidden from the reader
   */
  signature: z.string().nullable(),
  typedData: signedCommentTypedDataSchema.nullable(),
};
export const commentSchema = z.object(commentBase).meta({ id: 'Comment' });
export type CommentView = z.infer<typeof commentSchema>;

const replySchema = z.object({ ...commentBase, replies: z.array(commentSchema) });
export const threadCommentSchema = z
  .object({ ...commentBase, replies: z.array(replySchema) })
  .meta({ id: 'ThreadComment' });
export type ThreadComment = z.infer<typeof threadCommentSchema>;

export const commentThreadSchema = z
  .object({
    items: z.array(threadCommentSchema),
    pagination: paginationSchema,
    counts: z.object({
      /** every comment of the proposal, tombstones and hidden ones included */
      comments: z.number().int(),
      topLevel: z.number().int(),
    }),
    /** whether the reader moderates the DAO (sees hidden text, hides and unhides) */
    moderator: z.boolean(),
  })
  .meta({ id: 'CommentThread' });

export const commentEditSchema = z
  .object({ body: z.string(), editedAt: isoDateTime })
  .meta({ id: 'CommentEdit' });
export const commentEditsSchema = z.object({ items: z.array(commentEditSchema) });
