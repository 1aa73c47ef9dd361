import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  check,
  index,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, parentId, tstz } from './columns';
import { proposals } from './governance';
import { users } from './users';

/**
 * The discussion under a proposal (docs/discussion.md). A deleted comment stays as a tombstone (body
 * emptied, `deleted_at` set) so its replies keep their place; `depth` 0 is top level, replies nest to 2.
 */
export const proposalComments = pgTable(
  'proposal_comments',
  {
    id: id(),
    proposalId: parentId('proposal_id', () => proposals.id),
    daoId: uuid('dao_id').notNull(),
    parentId: uuid('parent_id').references((): AnyPgColumn => proposalComments.id, { onDelete: 'cascade' }),
    depth: smallint('depth').notNull().default(0),
    authorUserId: uuid('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    authorAddress: text('author_address').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
    editedAt: tstz('edited_at'),
    deletedAt: tstz('deleted_at'),
    hiddenAt: tstz('hidden_at'),
    hiddenReason: text('hidden_reason'),
    hiddenBy: text('hidden_by'),
    // a signed comment (docs/discussion.md, "Signed comments"): its signature and signed timestamp, and
    // the EIP-712 digest of the signed message, unique: one signed message posts once, however its
    // signature is encoded
    signature: text('signature'),
    signedTimestamp: bigint('signed_timestamp', { mode: 'number' }),
    signedDigest: text('signed_digest'),
  },
  (t) => [
    index('proposal_comments_thread_idx').on(t.proposalId, t.parentId, t.createdAt),
    index('proposal_comments_author_idx').on(t.authorUserId, t.createdAt),
    check('proposal_comments_depth', sql`${t.depth} between 0 and 2`),
    uniqueIndex('proposal_comments_signed_digest_idx').on(t.signedDigest),
    check(
      'proposal_comments_signed',
      sql`(${t.signature} is null) = (${t.signedTimestamp} is null) and (${t.signature} is null) = (${t.signedDigest} is null)`,
    ),
  ],
);

/** A comment's earlier bodies, one row per edit: what moderators read (docs/discussion.md, "Editing and deleting"). */
export const proposalCommentEdits = pgTable(
  'proposal_comment_edits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    commentId: parentId('comment_id', () => proposalComments.id),
    body: text('body').notNull(),
    editedAt: createdAt(),
  },
  (t) => [index('proposal_comment_edits_comment_idx').on(t.commentId, t.id)],
);
