import type { users } from '@plenum/db';
import { sql } from 'drizzle-orm';
import type { Services } from '../services';
import { executePrepared, rowsOf } from '../shared/prepared';
import { hashToken, newToken } from '../shared/tokens';
import type { SessionClient } from './sessions';
import { startSession } from './start-session';

/**
 * Where every first factor ends (docs/accounts.md, "Two-factor sign-in"): an account without a second
 * factor gets its session at once; one with a second factor gets a short-lived `mfaToken` instead, and
 * the session only from `POST /auth/login/mfa` with a code. No session, no cookie before that.
 */
export type FirstFactor = 'password' | 'siwe' | 'oidc';

/** the ways to answer a challenge, as `methods` names them */
export const MFA_METHODS = ['totp', 'recovery_code', 'passkey'] as const;

/** how long a proven first factor waits for its second one */
export const MFA_CHALLENGE_TTL_MS = 5 * 60_000;

export const MFA_TOKEN_PREFIX = 'mfa_';

export interface MfaChallenge {
  mfaRequired: true;
  mfaToken: string;
  methods: (typeof MFA_METHODS)[number][];
  expiresAt: string;
}

/**
 * One statement: the challenge is written only when the account has a confirmed second factor (a TOTP
 * app or a passkey; and the account's challenges spent by time go with it, so the table stays the size
 * of the sign-ins under way). The row back says which factors the account has; no row: no factor, and
 * the session starts at once.
 */
const challengeStatement = (p: {
  hash: string;
  userId: string;
  method: FirstFactor;
  expiresAt: Date;
  now: Date;
}) => sql`
  with swept as (
    delete from mfa_challenges where user_id = ${p.userId}::uuid and expires_at < ${p.now.toISOString()}::timestamptz
  ),
  factors as (
    select exists (select 1 from totp_factors where user_id = ${p.userId}::uuid and confirmed_at is not null) as totp,
      exists (select 1 from passkeys where user_id = ${p.userId}::uuid) as passkey
  ),
  written as (
    insert into mfa_challenges (token_hash, user_id, method, expires_at, created_at)
    select ${p.hash}, ${p.userId}::uuid, ${p.method}, ${p.expiresAt.toISOString()}::timestamptz, ${p.now.toISOString()}::timestamptz
    from factors where totp or passkey
    returning token_hash
  )
  select totp, passkey from factors where exists (select 1 from written)`;

export async function finishFirstFactor(
  svc: Services,
  user: typeof users.$inferSelect,
  method: FirstFactor,
  client?: SessionClient,
) {
  const now = svc.clock.now();
  const token = newToken(MFA_TOKEN_PREFIX);
  const expiresAt = new Date(now.getTime() + MFA_CHALLENGE_TTL_MS);
  const [written] = rowsOf<{ totp: boolean; passkey: boolean }>(
    await executePrepared(
      svc.db,
      'plenum_mfa_challenge',
      challengeStatement({ hash: hashToken(token), userId: user.id, method, expiresAt, now }),
    ),
  );
  if (!written) return startSession(svc, user, client, method);
  const challenge: MfaChallenge = {
    mfaRequired: true,
    mfaToken: token,
    methods: MFA_METHODS.filter((m) => (m === 'passkey' ? written.passkey : written.totp)),
    expiresAt: expiresAt.toISOString(),
  };
  return challenge;
}
