import { type DbOrTx, passwordResetTokens, users } from '@plenum/db';
import { and, eq, gt, isNull, lt, ne } from 'drizzle-orm';
import { findUserByEmail } from '../../accounts/find-by-email';
import { enqueueEmail } from '../../mail/outbox';
import { accountNoticeEmail, passwordResetEmail } from '../../mail/templates';
import type { Services } from '../../services';
import { badRequest } from '../../shared/errors';
import { hashToken, newToken } from '../../shared/tokens';
import { recordAccountEvent } from '../activity';
import type { SessionClient } from '../sessions';
import { clearLoginThrottle } from '../throttle';
import { endSessionsExcept } from '../user-sessions';
import { hashPassword } from './hash';
import { assertPasswordPolicy } from './policy';

/** expired links are kept this long (so presenting one says "expired"), then swept */
const KEEP_EXPIRED_MS = 86_400_000;

/**
 * POST /auth/password-reset: mails a single-use link to an account that may sign in. The caller learns
 * nothing: the answer is the same 202 for any address, and the request does the same work whoever it
 * names (a token is made and hashed every time, the sweep of old links runs every time); only an
 * account that may use the link (not suspended, not deleted) gets the token stored and the mail queued,
 * in one transaction. See docs/accounts.md.
 */
export async function requestPasswordReset(svc: Services, params: { email: string }) {
  const user = await findUserByEmail(svc.db, params.email);
  const link = newResetLink(); // made and hashed whoever the address names: the same work for all
  const now = svc.clock.now();
  const eligible = user && !user.deletedAt && user.status !== 'suspended';
  await svc.db.transaction(async (tx) => {
    await tx
      .delete(passwordResetTokens)
      .where(lt(passwordResetTokens.expiresAt, new Date(now.getTime() - KEEP_EXPIRED_MS)));
    if (eligible) await storeResetLink(svc, tx, { user, link });
  });
}

export interface ResetLink {
  token: string;
  tokenHash: string;
}

export function newResetLink(): ResetLink {
  const token = newToken();
  return { token, tokenHash: hashToken(token) };
}

/**
 * Stores a reset token for the account and queues the mail with its link, in the caller's transaction:
 * what a request does for an eligible account, and what undoing an email change mails the restored
 * address (docs/accounts.md, "Changing the email address").
 */
export async function storeResetLink(
  svc: Pick<Services, 'clock' | 'config'>,
  tx: DbOrTx,
  params: { user: { id: string; email: string; firstName: string }; link: ResetLink },
) {
  const { user, link } = params;
  const now = svc.clock.now();
  const ttl = svc.config.passwordResetTokenTtlMs;
  await tx.insert(passwordResetTokens).values({
    userId: user.id,
    tokenHash: link.tokenHash,
    expiresAt: new Date(now.getTime() + ttl),
    createdAt: now,
  });
  const mail = passwordResetEmail({
    appUrl: svc.config.appUrl,
    firstName: user.firstName,
    token: link.token,
    expiresInMs: ttl,
  });
  await enqueueEmail(tx, { to: user.email, subject: mail.subject, text: mail.text, html: mail.html });
}

type ResetRefusal = 'RESET_TOKEN_INVALID' | 'RESET_TOKEN_USED' | 'RESET_TOKEN_EXPIRED';
const refused = (reason: ResetRefusal, message: string) =>
  badRequest(
    message,
    [{ path: 'token', message, code: reason.toLowerCase() as Lowercase<ResetRefusal> }],
    reason,
  );

/**
 * POST /auth/password-reset/confirm: the mailed token sets a new password (under the policy). The token
 * and every other outstanding reset link of the user are spent, and every session of the user ends;
 * the owner is mailed a notice and the reset recorded in the account's activity; nothing else is written
 * (no sign-in, no change to the email's verification).
 */
export async function resetPassword(
  svc: Services,
  params: { token: string; newPassword: string; client?: SessionClient | undefined },
) {
  const now = svc.clock.now();
  const tokenHash = hashToken(params.token);
  const [row] = await svc.db
    .select({ token: passwordResetTokens, user: users })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(eq(passwordResetTokens.tokenHash, tokenHash))
    .limit(1);
  // an account suspended or deleted since the mail was sent can no longer use it
  if (!row || row.user.deletedAt || row.user.status === 'suspended')
    throw refused('RESET_TOKEN_INVALID', 'This reset link is not valid');
  if (row.token.usedAt) throw refused('RESET_TOKEN_USED', 'This reset link was already used');
  if (row.token.expiresAt <= now) throw refused('RESET_TOKEN_EXPIRED', 'This reset link has expired');
  assertPasswordPolicy(params.newPassword, svc.config.passwordPolicy, 'newPassword');

  const passwordHash = await hashPassword(params.newPassword);
  const userId = row.user.id;
  await svc.db.transaction(async (tx) => {
    // spent atomically: of two uses at once, exactly one gets here
    const spent = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetTokens.id, row.token.id),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, now),
        ),
      )
      .returning({ id: passwordResetTokens.id });
    if (!spent.length) throw refused('RESET_TOKEN_USED', 'This reset link was already used');
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
    const updated = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(and(eq(users.id, userId), isNull(users.deletedAt), ne(users.status, 'suspended')))
      .returning({ id: users.id });
    if (!updated.length) throw refused('RESET_TOKEN_INVALID', 'This reset link is not valid');
    await endSessionsExcept(tx, userId, null, now);
    // proving the mailbox lifts a sign-in lock (docs/accounts.md, "Password guessing")
    await clearLoginThrottle(tx, row.user.email);
    await recordAccountEvent(tx, { userId, kind: 'password_reset', ...params.client, at: now });
    await enqueueEmail(tx, {
      to: row.user.email,
      ...accountNoticeEmail({
        appUrl: svc.config.appUrl,
        firstName: row.user.firstName,
        notice: 'password_reset',
      }),
    });
  });
  return { message: 'Your password was reset. Sign in with the new password.' };
}
