import { bigint, boolean, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, parentId, tstz } from './columns';
import { users } from './users';

/**
 * An account's passkeys (WebAuthn credentials; docs/accounts.md, "Passkeys"). Nothing here is secret: the
 * authenticator keeps the private key, the server the public key (COSE, base64url) and the signature
 * counter, which must grow with each sign-in when it is not zero (a counter that does not grow is a cloned
 * authenticator). The credential id is unique across accounts: one authenticator credential, one owner.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: id(),
    userId: parentId('user_id', () => users.id),
    /** the authenticator's credential id, base64url */
    credentialId: text('credential_id').notNull(),
    /** the COSE public key, base64url */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array(),
    /** 'singleDevice' or 'multiDevice' (a synced passkey) */
    deviceType: text('device_type').$type<'singleDevice' | 'multiDevice'>().notNull(),
    backedUp: boolean('backed_up').notNull(),
    /** the owner's label ("Laptop", "Phone") */
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: tstz('last_used_at'),
  },
  (t) => [
    uniqueIndex('passkeys_credential_id_key').on(t.credentialId),
    index('passkeys_user_idx').on(t.userId),
  ],
);

export const PASSKEY_CHALLENGE_PURPOSES = ['register', 'login', 'mfa'] as const;
export type PasskeyChallengePurpose = (typeof PASSKEY_CHALLENGE_PURPOSES)[number];

/**
 * WebAuthn challenges handed out and not yet answered, keyed by the SHA-256 of the challenge (the
 * answer carries the challenge in its clientDataJSON, so no other handle is needed). Short-lived and
 * spent by the first answer, in the database so that every instance sees them. `register` belongs to the
 * signed-in user adding a passkey, `mfa` to a sign-in awaiting its second factor (the `mfaToken`'s hash),
 * `login` to nobody yet (a usernameless sign-in).
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    challengeHash: text('challenge_hash').primaryKey(),
    purpose: text('purpose').$type<PasskeyChallengePurpose>().notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    mfaTokenHash: text('mfa_token_hash'),
    /** the label asked for with the registration options */
    name: text('name'),
    expiresAt: tstz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('passkey_challenges_expires_idx').on(t.expiresAt)],
);
