import { mfaChallenges, type users } from '@plenum/db';
import { and, eq, lt } from 'drizzle-orm';
import type { Services } from '../services';
import { hashToken, newToken } from '../shared/tokens';
import { hasSecondFactor } from './factors';
import type { SessionClient } from './sessions';
import { startSession } from './start-session';

/**
 * Where every first factor ends (docs/accounts.md, "Two-factor sign-in"): an account without a second
 * factor gets its session at once; one with a second factor gets a short-lived `mfaToken` instead, and
 * the session only from `POST /auth/login/mfa` with a code. No session, no cookie before that.
 */
export type FirstFactor = 'password' | 'siwe';

/** the ways to answer a challenge, as `methods` names them */
export const MFA_METHODS = ['totp', 'recovery_code'] as const;

/** how long a proven first factor waits for its second one */
export const MFA_CHALLENGE_TTL_MS = 5 * 60_000;

export const MFA_TOKEN_PREFIX = 'mfa_';

export interface MfaChallenge {
  mfaRequired: true;
  mfaToken: string;
  methods: (typeof MFA_METHODS)[number][];
  expiresAt: string;
}

export async function finishFirstFactor(
  svc: Services,
  user: typeof users.$inferSelect,
  method: FirstFactor,
  client?: SessionClient,
) {
  if (!(await hasSecondFactor(svc.db, user.id))) return startSession(svc, user, client);
  const now = svc.clock.now();
  const token = newToken(MFA_TOKEN_PREFIX);
  const expiresAt = new Date(now.getTime() + MFA_CHALLENGE_TTL_MS);
  await svc.db.transaction(async (tx) => {
    // this account's spent-by-time challenges go when it makes a new one: the table stays the size of
    // the sign-ins under way
    await tx
      .delete(mfaChallenges)
      .where(and(eq(mfaChallenges.userId, user.id), lt(mfaChallenges.expiresAt, now)));
    await tx
      .insert(mfaChallenges)
      .values({ tokenHash: hashToken(token), userId: user.id, method, expiresAt, createdAt: now });
  });
  const challenge: MfaChallenge = {
    mfaRequired: true,
    mfaToken: token,
    methods: [...MFA_METHODS],
    expiresAt: expiresAt.toISOString(),
  };
  return challenge;
}
