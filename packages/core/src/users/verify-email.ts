import { users, verificationTokens } from '@plenum/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { Services } from '../services';
import { badRequest } from '../shared/errors';
import { hashToken } from '../shared/tokens';

const invalid = () =>
  badRequest(
    'Invalid or expired verification token',
    [{ path: 'token', message: 'invalid or expired', code: 'invalid_token' }],
    'INVALID_TOKEN',
  );

/**
 * docs/users.md, "Email verification": the token activates a pending user; a token that already verified (or
 * any token of an already verified user) answers "already verified" and changes nothing; unknown or expired →
 * 400.
 */
export async function verifyEmail(svc: Services, params: { token: string }) {
  const now = svc.clock.now();
  return svc.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ token: verificationTokens, user: users })
      .from(verificationTokens)
      .innerJoin(users, eq(users.id, verificationTokens.userId))
      .where(eq(verificationTokens.tokenHash, hashToken(params.token)))
      .limit(1)
      .for('update');
    if (!row || row.user.deletedAt) throw invalid();
    const { user, token } = row;
    const view = (u: typeof user) => ({
      id: u.id,
      email: u.email,
      status: u.status,
      emailVerified: u.emailVerified,
    });
    if (user.emailVerified) return { ...view(user), message: 'already verified' };
    if (token.usedAt || token.expiresAt <= now) throw invalid();

    await tx.update(verificationTokens).set({ usedAt: now }).where(eq(verificationTokens.id, token.id));
    // other outstanding tokens of this user can no longer verify
    await tx
      .update(verificationTokens)
      .set({ usedAt: now })
      .where(and(eq(verificationTokens.userId, user.id), isNull(verificationTokens.usedAt)));
    // a suspended user stays suspended; verification still records the email as proven
    const status = user.status === 'pending_verification' ? 'active' : user.status;
    const statusBeforeSuspension =
      user.statusBeforeSuspension === 'pending_verification' ? 'active' : user.statusBeforeSuspension;
    const [updated] = await tx
      .update(users)
      .set({ emailVerified: true, verifiedAt: now, status, statusBeforeSuspension, updatedAt: now })
      .where(eq(users.id, user.id))
      .returning();
    return { ...view(updated!), message: 'email verified' };
  });
}
