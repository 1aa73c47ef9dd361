import { type DbOrTx, emailChanges, isUniqueViolation, users } from '@plenum/db';
import { and, eq, gt, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { enqueueEmail } from '../mail/outbox';
import { emailChangeConfirmEmail, emailChangedEmail } from '../mail/templates';
import type { Services } from '../services';
import { AppError, badRequest, conflict, notFound } from '../shared/errors';
import { hashToken, newToken } from '../shared/tokens';
import { revokeTokensMadeSince } from './access-tokens';
import { recordAccountEvent } from './activity';
import { hasSecondFactor, removeFactorsSetUpSince } from './factors';
import { invalidMfaCode, proveSecondFactor } from './mfa/totp';
import { checkingPasswords } from './password/gate';
import { hasPassword, verifyPassword } from './password/hash';
import { newResetLink, storeResetLink } from './password/reset';
import type { Principal, SessionClient } from './sessions';
import { clearLoginThrottle, reserveLoginAttempt } from './throttle';
import { assertSession, endSessionsExcept } from './user-sessions';

/** docs/accounts.md, "Changing the email address" */
export const CONFIRM_TTL_MS = 24 * 3_600_000;
export const UNDO_TTL_MS = 72 * 3_600_000;
/** spent and expired links are kept this long (so presenting one says which), then swept */
const KEEP_EXPIRED_MS = 86_400_000;

type LinkRefusal = 'EMAIL_CHANGE_TOKEN_INVALID' | 'EMAIL_CHANGE_TOKEN_USED' | 'EMAIL_CHANGE_TOKEN_EXPIRED';
const refused = (reason: LinkRefusal, message: string) =>
  badRequest(
    message,
    [{ path: 'token', message, code: reason.toLowerCase() as Lowercase<LinkRefusal> }],
    reason,
  );
const INVALID = 'This link is not valid';
const USED = 'This link was already used';
const EXPIRED = 'This link has expired';
const wrongPassword = (message: string) =>
  badRequest(
    `The current password ${message}`,
    [{ path: 'password', message, code: 'invalid_current_password' }],
    'INVALID_CURRENT_PASSWORD',
  );
const emailTaken = () => conflict('This email address belongs to another account', 'EMAIL_TAKEN');

export interface RequestEmailChangeParams {
  principal: Principal;
  /** trimmed and lower-cased by the input schema */
  newEmail: string;
  password?: string | undefined;
  code?: string | undefined;
  /** the caller's address, for its share of the password checks (password/gate.ts) */
  client?: string | null;
}

/**
 * POST /auth/email: a signed-in session proves the account (its password, or a second-factor code for an
 * account without one), then a link goes to the NEW address. The answer and the work are the same whether
 * or not another account uses that address; only the confirmation finds out (409 EMAIL_TAKEN). A new
 * request replaces the waiting one (one pending row per account, the database's partial unique index).
 */
export async function requestEmailChange(svc: Services, params: RequestEmailChangeParams) {
  const { principal } = params;
  assertSession(principal);
  const [user] = await svc.db.select().from(users).where(eq(users.id, principal.userId)).limit(1);
  if (!user || user.deletedAt) throw notFound('No such user');
  if (params.newEmail === user.email)
    throw badRequest(
      'This is the address the account has already',
      [{ path: 'newEmail', message: 'is the current address', code: 'email_unchanged' }],
      'EMAIL_UNCHANGED',
    );
  const token = newToken();
  const now = svc.clock.now();
  const pending = {
    oldEmail: user.email,
    newEmail: params.newEmail,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + CONFIRM_TTL_MS),
    createdAt: now,
  };
  const write = async (tx: DbOrTx) => {
    await sweep(tx, now);
    await tx
      .insert(emailChanges)
      .values({ userId: user.id, ...pending })
      .onConflictDoUpdate({
        target: emailChanges.userId,
        targetWhere: isNull(emailChanges.confirmedAt),
        set: pending,
      });
    await clearLoginThrottle(tx, user.email); // the proof was right
    const mail = emailChangeConfirmEmail({
      appUrl: svc.config.appUrl,
      firstName: user.firstName,
      token,
      expiresInMs: CONFIRM_TTL_MS,
    });
    await enqueueEmail(tx, { to: params.newEmail, subject: mail.subject, text: mail.text, html: mail.html });
  };

  const { password, code } = params;
  if (hasPassword(user)) {
    if (password === undefined) throw wrongPassword('is required');
    // as a password change: a stolen session must not become a guessing oracle (throttle.ts, gate.ts)
    const ok = await checkingPasswords(svc, params.client ?? null, async () => {
      await reserveLoginAttempt(svc, { email: user.email });
      return verifyPassword(user.passwordHash, password);
    });
    if (!ok) throw wrongPassword('is not correct');
    await svc.db.transaction(write);
  } else {
    await reserveLoginAttempt(svc, { email: user.email });
    if (!code || !(await hasSecondFactor(svc.db, user.id))) throw invalidMfaCode();
    // the code is taken in the transaction of the change: one code, one change
    await svc.db.transaction(async (tx) => {
      if (!(await proveSecondFactor(svc, tx, user.id, code))) throw invalidMfaCode();
      await write(tx);
    });
  }
  return { message: 'Check your new mailbox: the link in our mail confirms the new address.' };
}

/** links long expired or spent go, whichever account they belong to */
async function sweep(tx: DbOrTx, now: Date) {
  const before = new Date(now.getTime() - KEEP_EXPIRED_MS);
  await tx
    .delete(emailChanges)
    .where(
      or(
        and(isNull(emailChanges.confirmedAt), lt(emailChanges.expiresAt, before)),
        lt(emailChanges.undoExpiresAt, before),
      ),
    );
}

/** the account's row, locked; a link of a deleted or suspended account no longer works */
async function lockedUser(tx: DbOrTx, userId: string) {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!user || user.deletedAt || user.status === 'suspended')
    throw refused('EMAIL_CHANGE_TOKEN_INVALID', INVALID);
  return user;
}

/** runs `work` in a transaction; the users' unique email index refusing it is a 409 EMAIL_TAKEN */
async function claimingEmail<T>(svc: Services, work: (tx: DbOrTx) => Promise<T>): Promise<T> {
  try {
    return await svc.db.transaction(work);
  } catch (err) {
    if (err instanceof AppError || !isUniqueViolation(err)) throw err;
    throw emailTaken();
  }
}

/**
 * POST /auth/email/confirm: the link mailed to the new address. In one transaction the token is spent
 * (of the same link sent many times at once, one wins), the email is set (of two accounts confirming the
 * same address at once, the unique index lets one win), the account counts as verified, the sign-in
 * throttles of both addresses are lifted, and the old address gets a notice with a link that undoes it.
 */
export async function confirmEmailChange(
  svc: Services,
  params: { token: string; client?: SessionClient | undefined },
) {
  const now = svc.clock.now();
  const [row] = await svc.db
    .select()
    .from(emailChanges)
    .where(eq(emailChanges.tokenHash, hashToken(params.token)))
    .limit(1);
  if (!row) throw refused('EMAIL_CHANGE_TOKEN_INVALID', INVALID);
  if (row.confirmedAt) throw refused('EMAIL_CHANGE_TOKEN_USED', USED);
  if (row.expiresAt <= now) throw refused('EMAIL_CHANGE_TOKEN_EXPIRED', EXPIRED);

  const undoToken = newToken();
  return claimingEmail(svc, async (tx) => {
    const user = await lockedUser(tx, row.userId);
    const spent = await tx
      .update(emailChanges)
      .set({
        oldEmail: user.email,
        confirmedAt: now,
        undoTokenHash: hashToken(undoToken),
        undoExpiresAt: new Date(now.getTime() + UNDO_TTL_MS),
      })
      .where(
        and(eq(emailChanges.id, row.id), isNull(emailChanges.confirmedAt), gt(emailChanges.expiresAt, now)),
      )
      .returning({ id: emailChanges.id });
    if (!spent.length) throw refused('EMAIL_CHANGE_TOKEN_USED', USED);
    // the link proved the new mailbox: the account counts as verified (docs/users.md, "Account lifecycle")
    const active = (s: typeof user.status | null) => (s === 'pending_verification' ? 'active' : s);
    await tx
      .update(users)
      .set({
        email: row.newEmail,
        emailVerified: true,
        verifiedAt: now,
        status: active(user.status) ?? user.status,
        statusBeforeSuspension: active(user.statusBeforeSuspension),
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    await clearLoginThrottle(tx, user.email);
    await clearLoginThrottle(tx, row.newEmail);
    await recordAccountEvent(tx, { userId: user.id, kind: 'email_changed', ...params.client, at: now });
    const mail = emailChangedEmail({
      appUrl: svc.config.appUrl,
      firstName: user.firstName,
      newEmail: row.newEmail,
      token: undoToken,
      expiresInMs: UNDO_TTL_MS,
    });
    await enqueueEmail(tx, { to: user.email, subject: mail.subject, text: mail.text, html: mail.html });
    return {
      message: 'Your email address was changed. Sign in with the new address from now on.',
      email: row.newEmail,
    };
  });
}

/**
 * POST /auth/email/undo: the link mailed to the old address, for 72 hours. Whoever changed the address may
 * hold the account, so undoing takes it back for the owner: the old address returns, every session ends,
 * what was added since the change goes (access tokens made and a second factor set up since), the account's
 * other changes and their links are spent, the throttle is lifted, and the old address gets a password
 * reset link (whoever changed the address knew the password or a code).
 */
export async function undoEmailChange(
  svc: Services,
  params: { token: string; client?: SessionClient | undefined },
) {
  const now = svc.clock.now();
  const [row] = await svc.db
    .select()
    .from(emailChanges)
    .where(
      and(isNotNull(emailChanges.undoTokenHash), eq(emailChanges.undoTokenHash, hashToken(params.token))),
    )
    .limit(1);
  if (!row?.confirmedAt || !row.undoExpiresAt) throw refused('EMAIL_CHANGE_TOKEN_INVALID', INVALID);
  if (row.undoneAt) throw refused('EMAIL_CHANGE_TOKEN_USED', USED);
  if (row.undoExpiresAt <= now) throw refused('EMAIL_CHANGE_TOKEN_EXPIRED', EXPIRED);
  const changedAt = row.confirmedAt;

  await claimingEmail(svc, async (tx) => {
    const user = await lockedUser(tx, row.userId);
    const spent = await tx
      .update(emailChanges)
      .set({ undoneAt: now })
      .where(
        and(eq(emailChanges.id, row.id), isNull(emailChanges.undoneAt), gt(emailChanges.undoExpiresAt, now)),
      )
      .returning({ id: emailChanges.id });
    if (!spent.length) throw refused('EMAIL_CHANGE_TOKEN_USED', USED);
    // the later changes' undo links would hand the account back: spent; a waiting change: dropped
    await tx
      .update(emailChanges)
      .set({ undoneAt: now })
      .where(
        and(
          eq(emailChanges.userId, user.id),
          isNotNull(emailChanges.confirmedAt),
          isNull(emailChanges.undoneAt),
        ),
      );
    await tx
      .delete(emailChanges)
      .where(and(eq(emailChanges.userId, user.id), isNull(emailChanges.confirmedAt)));
    await tx.update(users).set({ email: row.oldEmail, updatedAt: now }).where(eq(users.id, user.id));
    await endSessionsExcept(tx, user.id, null, now);
    await recordAccountEvent(tx, {
      userId: user.id,
      kind: 'email_changed',
      detail: { undone: true },
      ...params.client,
      at: now,
    });
    await revokeTokensMadeSince(tx, { userId: user.id, since: changedAt, at: now });
    await removeFactorsSetUpSince(tx, { userId: user.id, since: changedAt });
    await clearLoginThrottle(tx, row.oldEmail);
    await storeResetLink(svc, tx, { user: { ...user, email: row.oldEmail }, link: newResetLink() });
  });
  return {
    message:
      'The change was undone: the old address is back and every session ended. We mailed it a link to choose a new password.',
  };
}
