import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, parentId } from './columns';
import { users } from './users';

/** what an account event records (docs/accounts.md, "Account activity") */
export const ACCOUNT_EVENT_KINDS = [
  'sign_in',
  'sign_in_failed',
  'password_changed',
  'password_reset',
  'email_changed',
  'factor_added',
  'factor_removed',
  'identity_linked',
  'identity_unlinked',
  'recovery_codes_renewed',
  'token_created',
  'token_revoked',
  'sessions_revoked',
  'suspended',
  'reactivated',
] as const;
export type AccountEventKind = (typeof ACCOUNT_EVENT_KINDS)[number];

/**
 * The account's own history of security-relevant changes, shown to its owner (docs/accounts.md, "Account
 * activity"): written in the transaction of the change it records, kept for a limited time.
 */
export const accountEvents = pgTable(
  'account_events',
  {
    id: id(),
    userId: parentId('user_id', () => users.id),
    kind: text('kind').$type<AccountEventKind>().notNull(),
    /** kind-specific facts (the sign-in method, the factor's kind); never a secret */
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    // read backwards for the newest first: (created_at, id) DESC is this index's order reversed, which a
    // DESC NULLS LAST index would not give to a plain ORDER BY … DESC
    index('account_events_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('account_events_created_idx').on(t.createdAt),
  ],
);
