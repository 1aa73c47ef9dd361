import { bigint, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, parentId, tstz, updatedAt } from './columns';
import { users } from './users';

export const PIN_STATUSES = ['pinning', 'pinned', 'failed'] as const;
export type PinStatus = (typeof PIN_STATUSES)[number];

/**
 * One pin per (cid, owner wallet); served by the /ipfs paths and the Pinning Service API (docs/storage.md,
 * "Pins").
 */
export const pins = pgTable(
  'pins',
  {
    /** the Pinning Service API's requestid */
    id: id(),
    /** CIDv1 base32 */
    cid: text('cid').notNull(),
    /** EIP-55 wallet address of the owner */
    owner: text('owner').notNull(),
    userId: parentId('user_id', () => users.id),
    status: text('status').$type<PinStatus>().notNull().default('pinning'),
    name: text('name'),
    filename: text('filename'),
    mimetype: text('mimetype'),
    size: bigint('size', { mode: 'number' }),
    /** Pinning Service API `meta` and `origins` */
    meta: jsonb('meta').$type<Record<string, string>>(),
    origins: jsonb('origins').$type<string[]>(),
    failureReason: text('failure_reason'),
    verifiedAt: tstz('verified_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('pins_cid_owner_key').on(t.cid, t.owner),
    // unique per user: the Pinning Service API pages by `created`, so equal times would skip or repeat pins
    uniqueIndex('pins_user_created_key').on(t.userId, t.createdAt),
    index('pins_cid_idx').on(t.cid),
  ],
);
