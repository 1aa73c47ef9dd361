import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, parentId, tstz } from './columns';
import { proposals } from './governance';
import { users } from './users';

export const GOVERNANCE_NOTIFICATION_KINDS = ['opened', 'reminder', 'outcome'] as const;
export type GovernanceNotificationKind = (typeof GOVERNANCE_NOTIFICATION_KINDS)[number];

/**
 * One row per governance mail enqueued (docs/governance.md, "Notifications"): the unique index makes each
 * (proposal, user, kind) mail happen once whatever the number of instances, and the row holds the hash of
 * the unsubscribe token that mail carries. Written in the same transaction as the outbox rows.
 */
export const governanceNotifications = pgTable(
  'governance_notifications',
  {
    id: id(),
    proposalId: parentId('proposal_id', () => proposals.id),
    userId: parentId('user_id', () => users.id),
    kind: text('kind').$type<GovernanceNotificationKind>().notNull(),
    /** sha256 (hex) of the mail's unsubscribe token; the token itself is only in the mail */
    tokenHash: text('token_hash').notNull(),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('governance_notifications_once').on(t.proposalId, t.userId, t.kind),
    uniqueIndex('governance_notifications_token_key').on(t.tokenHash),
    index('governance_notifications_user_idx').on(t.userId),
  ],
);
