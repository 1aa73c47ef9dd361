import { mfaChallenges, users } from '@plenum/db';
import { and, eq, gt } from 'drizzle-orm';
import type { Services } from '../../services';
import { AppError, forbidden, unauthorized } from '../../shared/errors';
import { hashToken } from '../../shared/tokens';
import type { SessionClient } from '../sessions';
import { startSessionIn } from '../start-session';
import { clearLoginThrottle, reserveLoginAttempt } from '../throttle';
import { spendRecoveryCode } from './recovery';
import { acceptTotpCode } from './totp';

const invalidChallenge = () =>
  unauthorized('This sign-in has expired or is complete; sign in again', 'MFA_TOKEN_INVALID');
const invalidCode = () => unauthorized('The code is not correct or was used already', 'INVALID_MFA_CODE');

/**
 * The second step of a sign-in (docs/accounts.md, "Two-factor sign-in"): the `mfaToken` of a proven
 * first factor and a TOTP or recovery code. The attempt counts toward the account's sign-in throttle
 * before the code is checked (as a password does). The challenge is spent, the code taken and the
 * session made in one transaction: a wrong code leaves the challenge for another try, and of two right
 * answers at once exactly one gets a session.
 */
export async function completeMfaLogin(
  svc: Services,
  params: {
    mfaToken: string;
    code?: string | undefined;
    recoveryCode?: string | undefined;
    client?: SessionClient;
  },
) {
  const tokenHash = hashToken(params.mfaToken);
  const now = svc.clock.now();
  const [found] = await svc.db
    .select({ user: users })
    .from(mfaChallenges)
    .innerJoin(users, eq(users.id, mfaChallenges.userId))
    .where(and(eq(mfaChallenges.tokenHash, tokenHash), gt(mfaChallenges.expiresAt, now)))
    .limit(1);
  if (!found || found.user.deletedAt) throw invalidChallenge();
  const { user } = found;
  await reserveLoginAttempt(svc, { email: user.email });
  const session = await svc.db.transaction(async (tx) => {
    const spent = await tx
      .delete(mfaChallenges)
      .where(and(eq(mfaChallenges.tokenHash, tokenHash), gt(mfaChallenges.expiresAt, now)))
      .returning({ userId: mfaChallenges.userId });
    if (!spent.length) throw invalidChallenge();
    const ok = params.code
      ? await acceptTotpCode(svc, tx, user.id, params.code.trim())
      : params.recoveryCode
        ? await spendRecoveryCode(svc, tx, user.id, params.recoveryCode)
        : false;
    // the throw undoes the challenge's deletion: it may be answered again, within its time
    if (!ok) throw invalidCode();
    const [current] = await tx.select().from(users).where(eq(users.id, user.id)).limit(1);
    if (!current || current.deletedAt) throw invalidChallenge();
    if (current.status === 'suspended') throw forbidden('This account is suspended', 'ACCOUNT_SUSPENDED');
    await clearLoginThrottle(tx, user.email);
    return startSessionIn(svc, tx, current, params.client);
  });
  if (!session) throw new AppError('INTERNAL_SERVER_ERROR', 'no session');
  return session;
}
