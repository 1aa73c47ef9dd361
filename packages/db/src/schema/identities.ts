import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, parentId, tstz } from './columns';
import { users } from './users';

/**
 * An account's identity at an OpenID provider (docs/accounts.md, "Signing in with OpenID Connect"): the
 * provider's id from OIDC_PROVIDERS and the `sub` it gives the person. One (provider, subject) belongs to
 * at most one account. `email` is what the provider said when it was linked, for the account page only.
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: id(),
    userId: parentId('user_id', () => users.id),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    createdAt: createdAt(),
    lastUsedAt: tstz('last_used_at'),
  },
  (t) => [
    uniqueIndex('user_identities_provider_subject_key').on(t.provider, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);

/**
 * A sign-in at a provider under way: keyed by the SHA-256 of `state`, bound to the browser by the hash of
 * a cookie's value, the PKCE verifier and nonce sealed with the server's secret key. Spent (deleted) by
 * the callback; 10 minutes at most. `linkUserId`: the flow links to this signed-in account.
 */
export const oidcStates = pgTable(
  'oidc_states',
  {
    stateHash: text('state_hash').primaryKey(),
    browserHash: text('browser_hash').notNull(),
    provider: text('provider').notNull(),
    /** sealed JSON { codeVerifier, nonce } */
    secrets: text('secrets').notNull(),
    returnTo: text('return_to').notNull(),
    linkUserId: uuid('link_user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: tstz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('oidc_states_expires_idx').on(t.expiresAt)],
);

/**
 * A provider identity whose email belongs to an existing account, waiting for that account's owner to
 * confirm the link from the mailed link (single use, 24 hours).
 */
export const identityLinkRequests = pgTable(
  'identity_link_requests',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    userId: parentId('user_id', () => users.id),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('identity_link_requests_token_hash_key').on(t.tokenHash),
    index('identity_link_requests_user_idx').on(t.userId),
  ],
);
