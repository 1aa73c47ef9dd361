import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, parentId, tstz, updatedAt } from './columns';

export const USER_STATUSES = ['pending_verification', 'active', 'suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
export const USER_ROLES = ['user', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const ACCESS_TOKEN_SCOPES = ['read', 'governance', 'storage', 'account'] as const;
export type AccessTokenScope = (typeof ACCESS_TOKEN_SCOPES)[number];

export const users = pgTable(
  'users',
  {
    id: id(),
    /** trimmed and lower-cased: emails compare ignoring case */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    organizationName: text('organization_name'),
    bio: text('bio'),
    phoneNumber: text('phone_number'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    avatarUrl: text('avatar_url'),
    /** file name under UPLOAD_PATH, never exposed */
    avatarFile: text('avatar_file'),
    avatarMime: text('avatar_mime'),
    socialLinks: jsonb('social_links').$type<Record<string, string>>(),
    preferences: jsonb('preferences').$type<Record<string, unknown>>(),
    status: text('status').$type<UserStatus>().notNull().default('pending_verification'),
    /** status to return to on reactivation */
    statusBeforeSuspension: text('status_before_suspension').$type<UserStatus>(),
    role: text('role').$type<UserRole>().notNull().default('user'),
    emailVerified: boolean('email_verified').notNull().default(false),
    profileVisibility: text('profile_visibility').$type<'public' | 'private'>().notNull().default('public'),
    termsAcceptedAt: tstz('terms_accepted_at'),
    verifiedAt: tstz('verified_at'),
    suspendedAt: tstz('suspended_at'),
    suspensionReason: text('suspension_reason'),
    suspendedBy: uuid('suspended_by'),
    reactivatedAt: tstz('reactivated_at'),
    reactivatedBy: uuid('reactivated_by'),
    lastLoginAt: tstz('last_login_at'),
    /** soft deletion marker: the account is kept, its email stays taken */
    deletedAt: tstz('deleted_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    index('users_created_at_idx').on(t.createdAt),
    index('users_status_idx').on(t.status),
    // the admin list (docs/architecture.md, "Lists at scale"): its order and count over the live accounts
    // read from this index alone, and the search's two substrings from the trigram indexes (pg_trgm)
    index('users_live_created_idx').on(t.createdAt, t.id).where(sql`${t.deletedAt} is null`),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_name_trgm_idx').using('gin', sql`(${t.firstName} || ' ' || ${t.lastName}) gin_trgm_ops`),
  ],
);

/**
 * One row: the number of live (not soft-deleted) accounts, kept by statement triggers on users (migration
 * 0013), so the admin list's unfiltered total is not a count of every account (docs/architecture.md,
 * "Lists at scale")
 */
export const userTotals = pgTable('user_totals', {
  id: boolean('id').primaryKey().default(true),
  live: integer('live').notNull().default(0),
});

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: parentId('user_id', () => users.id),
    tokenHash: text('token_hash').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    createdAt: createdAt(),
    /** written at most once a minute per session (see resolveToken) */
    lastUsedAt: tstz('last_used_at'),
    /** the client that signed in, for the user's list of sessions and devices */
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [uniqueIndex('sessions_token_hash_key').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/** Personal access tokens for programs (Kubo remote pinning, scripts). */
export const accessTokens = pgTable(
  'access_tokens',
  {
    id: id(),
    userId: parentId('user_id', () => users.id),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** first characters of the token, to recognise it in a list */
    prefix: text('prefix').notNull(),
    /** what the token may do (docs/accounts.md, "Token scopes"); tokens made before scopes have the default */
    scopes: text('scopes')
      .array()
      .$type<AccessTokenScope[]>()
      .notNull()
      .default(sql`'{read,governance,storage}'::text[]`),
    expiresAt: tstz('expires_at'),
    lastUsedAt: tstz('last_used_at'),
    revokedAt: tstz('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('access_tokens_token_hash_key').on(t.tokenHash),
    index('access_tokens_user_idx').on(t.userId),
    check(
      'access_tokens_scopes_check',
      sql`cardinality(${t.scopes}) > 0 and ${t.scopes} <@ '{read,governance,storage,account}'::text[]`,
    ),
  ],
);

export const verificationTokens = pgTable(
  'verification_tokens',
  {
    id: id(),
    userId: parentId('user_id', () => users.id),
    tokenHash: text('token_hash').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    /** set when the token verified the account: it can never verify again, but is still recognised */
    usedAt: tstz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('verification_tokens_hash_key').on(t.tokenHash),
    index('verification_tokens_user_idx').on(t.userId),
  ],
);

/** Password reset links: stored as a hash, single use, short-lived (PASSWORD_RESET_TOKEN_EXPIRY). */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: id(),
    userId: parentId('user_id', () => users.id),
    tokenHash: text('token_hash').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    /** set when the token reset the password, or when another of the user's tokens did */
    usedAt: tstz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('password_reset_tokens_hash_key').on(t.tokenHash),
    index('password_reset_tokens_user_idx').on(t.userId),
    index('password_reset_tokens_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Email changes (docs/accounts.md, "Changing the email address"): a link to the new address confirms one,
 * then a link to the old address may undo it for 72 hours. Both tokens are stored as SHA-256 hashes and
 * work once. At most one change per account waits for its confirmation (the partial unique index): a new
 * request replaces it, so the older link stops working.
 */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: id(),
    userId: parentId('user_id', () => users.id),
    /** the address when the change was asked for, replaced by the one it had at confirmation */
    oldEmail: text('old_email').notNull(),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    /** set when the link to the new address confirmed the change */
    confirmedAt: tstz('confirmed_at'),
    undoTokenHash: text('undo_token_hash'),
    undoExpiresAt: tstz('undo_expires_at'),
    /** set when the undo link was used, or when an undo of the account's other changes spent it */
    undoneAt: tstz('undone_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('email_changes_token_hash_key').on(t.tokenHash),
    uniqueIndex('email_changes_undo_token_hash_key').on(t.undoTokenHash),
    uniqueIndex('email_changes_one_pending_per_user').on(t.userId).where(sql`${t.confirmedAt} is null`),
    index('email_changes_expires_idx').on(t.expiresAt),
  ],
);

export const wallets = pgTable(
  'wallets',
  {
    /** EIP-55 checksummed */
    address: text('address').primaryKey(),
    userId: parentId('user_id', () => users.id),
    isPrimary: boolean('is_primary').notNull().default(false),
    linkedAt: createdAt(),
  },
  (t) => [
    index('wallets_user_idx').on(t.userId),
    uniqueIndex('wallets_one_primary_per_user').on(t.userId).where(sql`${t.isPrimary}`),
  ],
);

/**
 * An account's TOTP second factor (docs/accounts.md, "Two-factor sign-in"): one per account. The secret
 * is encrypted with the server's secret key; `confirmedAt` null is an enrolment not yet confirmed by a
 * code. `lastUsedStep` is the newest 30-second step a code was accepted for: a code of that step or an
 * older one is refused, so a code works once.
 */
export const totpFactors = pgTable('totp_factors', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  confirmedAt: tstz('confirmed_at'),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Single-use recovery codes of an account with a second factor, stored as keyed hashes. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: parentId('user_id', () => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: tstz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_key').on(t.userId, t.codeHash)],
);

/**
 * A first factor proven, the second one awaited: what `mfaToken` names between `POST /auth/login` (or
 * SIWE) and `POST /auth/login/mfa`. Stored as a hash, short-lived, spent by the sign-in it completes.
 */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: parentId('user_id', () => users.id),
    /** the first factor: 'password' or 'siwe' */
    method: text('method').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('mfa_challenges_user_idx').on(t.userId), index('mfa_challenges_expires_idx').on(t.expiresAt)],
);

export const siweNonces = pgTable('siwe_nonces', {
  nonce: text('nonce').primaryKey(),
  expiresAt: tstz('expires_at').notNull(),
  usedAt: tstz('used_at'),
  createdAt: createdAt(),
});

export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: id(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** extra mail headers (List-Unsubscribe), null for none */
    headers: jsonb('headers').$type<Record<string, string>>(),
    status: text('status').$type<'pending' | 'sent' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tstz('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: tstz('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('email_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('email_outbox_created_idx').on(t.createdAt),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    actorId: uuid('actor_id').references(() => users.id),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    reason: text('reason'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    // the admin's filters (docs/users.md, "Administration"): each reads its rows newest first
    index('audit_log_actor_created_idx').on(t.actorId, t.createdAt),
    index('audit_log_target_created_idx').on(t.targetId, t.createdAt),
    index('audit_log_action_created_idx').on(t.action, t.createdAt),
  ],
);

/**
 * Failed sign-ins per account (docs/accounts.md, "Password guessing"): keyed by a hash of the normalised
 * email, known or not (so the limit says nothing about which emails exist); shared by every instance.
 */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lastFailureAt: tstz('last_failure_at').notNull(),
  lockedUntil: tstz('locked_until'),
});

/** Shared rate-limit counters (rate-limiter-flexible's Drizzle store): several instances, one budget. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: tstz('expire'),
});
