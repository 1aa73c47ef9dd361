import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, parentId, tstz, updatedAt } from './columns';
import { daos } from './governance';
import { users } from './users';

export const PIN_STATUSES = ['pinning', 'pinned', 'failed'] as const;
export type PinStatus = (typeof PIN_STATUSES)[number];

/** who may read a pinned CID (docs/storage.md, "Private and members-only files") */
export const PIN_VISIBILITIES = ['public', 'private', 'dao'] as const;
export type PinVisibility = (typeof PIN_VISIBILITIES)[number];

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
    /**
     * bytes counted against the owner's quota (docs/storage.md, "Quotas"): an upload's size at once, a
     * pin by CID's DAG size once verified; null while pending and when failed
     */
    storedBytes: bigint('stored_bytes', { mode: 'number' }),
    /** Pinning Service API `meta` and `origins` */
    meta: jsonb('meta').$type<Record<string, string>>(),
    origins: jsonb('origins').$type<string[]>(),
    failureReason: text('failure_reason'),
    verifiedAt: tstz('verified_at'),
    /** public (default), private (the owner) or dao (the members of `daoId`) */
    visibility: text('visibility').$type<PinVisibility>().notNull().default('public'),
    /** visibility dao: whose members read it; null once the DAO is deleted (then only the owner reads) */
    daoId: uuid('dao_id').references(() => daos.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('pins_visibility_check', sql`${t.visibility} in ('public', 'private', 'dao')`),
    check('pins_dao_visibility_check', sql`${t.daoId} is null or ${t.visibility} = 'dao'`),
    uniqueIndex('pins_cid_owner_key').on(t.cid, t.owner),
    // unique per user: the Pinning Service API pages by `created`, so equal times would skip or repeat pins
    uniqueIndex('pins_user_created_key').on(t.userId, t.createdAt),
    index('pins_cid_idx').on(t.cid),
    index('pins_user_status_idx').on(t.userId, t.status),
  ],
);

/**
 * A user's own storage quota, where an admin set one (docs/storage.md, "Quotas"): `limit_bytes` 0 is
 * unlimited; no row means STORAGE_QUOTA_BYTES.
 */
export const storageQuotas = pgTable(
  'storage_quotas',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    limitBytes: bigint('limit_bytes', { mode: 'number' }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [check('storage_quotas_limit_nonnegative', sql`${t.limitBytes} >= 0`)],
);

/**
 * Bytes an upload in flight holds against its user's quota, written under the user's quota lock before
 * the node import and removed when the pin is recorded or the upload fails (docs/storage.md, "Quotas").
 * `expires_at` bounds what a crashed process leaves behind.
 */
export const storageReservations = pgTable(
  'storage_reservations',
  {
    id: id(),
    userId: parentId('user_id', () => users.id),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    expiresAt: tstz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('storage_reservations_user_idx').on(t.userId, t.expiresAt)],
);

/**
 * Signed expiring links to a CID (docs/storage.md, "Signed links"): the URL's token is stored only as its
 * SHA-256; the link serves the file without credentials until `expiresAt` or its revocation.
 */
export const storageLinks = pgTable(
  'storage_links',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    /** CIDv1 base32 */
    cid: text('cid').notNull(),
    /** who made it: the link reads with this user's right to the file */
    userId: parentId('user_id', () => users.id),
    expiresAt: tstz('expires_at').notNull(),
    revokedAt: tstz('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('storage_links_token_hash_key').on(t.tokenHash),
    index('storage_links_user_cid_idx').on(t.userId, t.cid, t.createdAt),
  ],
);
