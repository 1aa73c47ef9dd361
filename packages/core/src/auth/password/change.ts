import { users } from '@plenum/db';
import { and, eq } from 'drizzle-orm';
import { enqueueEmail } from '../../mail/outbox';
import { accountNoticeEmail } from '../../mail/templates';
import type { Services } from '../../services';
import { badRequest, conflict, notFound } from '../../shared/errors';
import { recordAccountEvent } from '../activity';
import type { Principal } from '../sessions';
import { clearLoginThrottle, reserveLoginAttempt } from '../throttle';
import { assertSession, endSessionsExcept } from '../user-sessions';
import { checkingPasswords } from './gate';
import { hashPassword, verifyPassword } from './hash';
import { assertPasswordPolicy } from './policy';

export interface ChangePasswordParams {
  principal: Principal;
  currentPassword: string;
  newPassword: string;
  /** the caller's address, for its share of the password checks (gate.ts) and the account event */
  client?: string | null;
  userAgent?: string | null;
}

/**
 * A signed-in user changes their password by proving the current one. A wrong current password is a
 * 400 `INVALID_CURRENT_PASSWORD` on that field, not a 401: the caller is signed in, and clients treat
 * 401 as "sign in again". On success every other session of the user ends and this one stays;
 * personal access tokens are separate credentials and are kept (see docs/accounts.md). The owner is
 * mailed and the change recorded in the account's activity, in the change's transaction.
 */
export async function changePassword(svc: Services, params: ChangePasswordParams) {
  const { principal } = params;
  assertSession(principal);
  assertPasswordPolicy(params.newPassword, svc.config.passwordPolicy, 'newPassword');
  const [user] = await svc.db.select().from(users).where(eq(users.id, principal.userId)).limit(1);
  if (!user || user.deletedAt) throw notFound('No such user');
  // a stolen session must not become a password-guessing oracle: the sign-in throttle applies here too,
  // each check counted before it is made (throttle.ts)
  const ok = await checkingPasswords(svc, params.client ?? null, async () => {
    await reserveLoginAttempt(svc, { email: user.email });
    return verifyPassword(user.passwordHash, params.currentPassword);
  });
  if (!ok) {
    throw badRequest(
      'The current password is not correct',
      [{ path: 'currentPassword', message: 'is not correct', code: 'invalid_current_password' }],
      'INVALID_CURRENT_PASSWORD',
    );
  }
  if (params.newPassword === params.currentPassword) {
    await clearLoginThrottle(svc.db, user.email); // the current password was right
    throw badRequest(
      'The new password must differ from the current one',
      [{ path: 'newPassword', message: 'must differ from the current password', code: 'unchanged' }],
      'PASSWORD_UNCHANGED',
    );
  }
  const passwordHash = await hashPassword(params.newPassword);
  const now = svc.clock.now();
  return svc.db.transaction(async (tx) => {
    // the hash that was verified must still be the stored one: of two changes at once, one wins
    const updated = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)))
      .returning({ id: users.id });
    if (!updated.length)
      throw conflict('The password was changed meanwhile; try again', 'PASSWORD_CHANGED_CONCURRENTLY');
    const endedSessions = await endSessionsExcept(tx, user.id, principal.credentialId, now);
    await clearLoginThrottle(tx, user.email);
    await recordAccountEvent(tx, {
      userId: user.id,
      kind: 'password_changed',
      ip: params.client,
      userAgent: params.userAgent,
      at: now,
    });
    await enqueueEmail(tx, {
      to: user.email,
      ...accountNoticeEmail({
        appUrl: svc.config.appUrl,
        firstName: user.firstName,
        notice: 'password_changed',
      }),
    });
    return { message: 'Password changed', endedSessions };
  });
}
