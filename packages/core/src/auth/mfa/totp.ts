import { type DbOrTx, mfaChallenges, recoveryCodes, totpFactors, users } from '@plenum/db';
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { enqueueEmail } from '../../mail/outbox';
import { secondFactorEmail } from '../../mail/templates';
import type { Services } from '../../services';
import { badRequest, conflict, notFound } from '../../shared/errors';
import { open, seal } from '../../shared/secret-box';
import { recordAccountEvent } from '../activity';
import type { Principal, SessionClient } from '../sessions';
import { clearLoginThrottle, reserveLoginAttempt } from '../throttle';
import { assertSession, endSessionsExcept } from '../user-sessions';
import { hashRecoveryCode, newRecoveryCodes, spendRecoveryCode } from './recovery';

/**
 * TOTP (RFC 6238, the otpauth library): 6 digits, 30-second steps, SHA-1 (what every authenticator app
 * reads), a code of the step before or after accepted for clock drift. docs/accounts.md,
 * "Two-factor sign-in".
 */
const PERIOD_S = 30;
const WINDOW = 1;
const SEAL_PURPOSE = 'totp-secret';

export const invalidMfaCode = () =>
  badRequest(
    'The code is not correct or was used already',
    [{ path: 'code', message: 'is not correct or was used already', code: 'invalid_mfa_code' }],
    'INVALID_MFA_CODE',
  );

const totpOf = (secretBase32: string, label: string) =>
  new TOTP({ issuer: 'Plenum', label, secret: Secret.fromBase32(secretBase32), period: PERIOD_S, digits: 6 });

/** the 30-second step a code was made for, or null when it fits no step of the window */
function stepOf(svc: Pick<Services, 'clock'>, secretBase32: string, code: string): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const timestamp = svc.clock.now().getTime();
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secretBase32),
    period: PERIOD_S,
    timestamp,
    window: WINDOW,
  });
  return delta === null ? null : TOTP.counter({ period: PERIOD_S, timestamp }) + delta;
}

const secretKey = (svc: Pick<Services, 'config'>) => svc.config.secretKey();

/** the step of `code` for a factor's stored secret, or null when the code fits no step of the window */
export const totpStepFor = (svc: Pick<Services, 'clock' | 'config'>, sealedSecret: string, code: string) =>
  stepOf(svc, open(secretKey(svc), SEAL_PURPOSE, sealedSecret), code);

async function userOf(svc: Pick<Services, 'db'>, userId: string) {
  const [user] = await svc.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user || user.deletedAt) throw notFound('No such user');
  return user;
}

/**
 * Accepts a TOTP code of a confirmed factor once: the step it was made for must be newer than the last
 * accepted one, and is recorded in the same statement, so the same code sent twice at once works once.
 */
export async function acceptTotpCode(
  svc: Services,
  tx: DbOrTx,
  userId: string,
  code: string,
): Promise<boolean> {
  const [factor] = await tx
    .select({ secret: totpFactors.secret })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)))
    .limit(1);
  if (!factor) return false;
  const step = stepOf(svc, open(secretKey(svc), SEAL_PURPOSE, factor.secret), code);
  if (step === null) return false;
  const taken = await tx
    .update(totpFactors)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(totpFactors.userId, userId),
        isNotNull(totpFactors.confirmedAt),
        or(isNull(totpFactors.lastUsedStep), lt(totpFactors.lastUsedStep, step)),
      ),
    )
    .returning({ userId: totpFactors.userId });
  return taken.length === 1;
}

/** the account page's view of its second factors */
export async function mfaStatus(svc: Pick<Services, 'db'>, params: { userId: string }) {
  const [factor] = await svc.db
    .select()
    .from(totpFactors)
    .where(eq(totpFactors.userId, params.userId))
    .limit(1);
  const [left] = await svc.db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, params.userId), isNull(recoveryCodes.usedAt)));
  return {
    totp: {
      enabled: !!factor?.confirmedAt,
      confirmedAt: factor?.confirmedAt?.toISOString() ?? null,
    },
    recoveryCodesLeft: factor?.confirmedAt ? Number(left?.n ?? 0) : 0,
  };
}

/**
 * Starts (or restarts) an enrolment: a new secret, stored encrypted and unconfirmed until a code made
 * from it comes back. An account whose factor is confirmed is refused: turn it off first.
 */
export async function startTotpEnrolment(svc: Services, params: { principal: Principal }) {
  const { principal } = params;
  assertSession(principal);
  const user = await userOf(svc, principal.userId);
  const secret = new Secret({ size: 20 });
  const sealed = seal(secretKey(svc), SEAL_PURPOSE, secret.base32);
  const now = svc.clock.now();
  const written = await svc.db
    .insert(totpFactors)
    .values({ userId: user.id, secret: sealed, createdAt: now })
    .onConflictDoUpdate({
      target: totpFactors.userId,
      set: { secret: sealed, createdAt: now, lastUsedStep: null },
      setWhere: isNull(totpFactors.confirmedAt),
    })
    .returning({ userId: totpFactors.userId });
  if (!written.length)
    throw conflict(
      'Two-factor sign-in is on already; turn it off first to set up another app',
      'TOTP_ALREADY_ENABLED',
    );
  return { secret: secret.base32, otpauthUrl: totpOf(secret.base32, user.email).toString() };
}

/**
 * Confirms an enrolment with a code from the app: the factor is on, ten recovery codes are made (shown
 * this once), the account's other sessions end (whoever else held one must now pass the second factor)
 * and the owner is mailed. A wrong code counts toward the sign-in throttle, like a wrong password.
 */
export async function confirmTotp(
  svc: Services,
  params: { principal: Principal; code: string; client?: SessionClient | undefined },
) {
  const { principal } = params;
  assertSession(principal);
  const user = await userOf(svc, principal.userId);
  const [pending] = await svc.db.select().from(totpFactors).where(eq(totpFactors.userId, user.id)).limit(1);
  if (!pending) throw conflict('Start the set-up first', 'NO_TOTP_ENROLMENT');
  if (pending.confirmedAt) throw conflict('Two-factor sign-in is on already', 'TOTP_ALREADY_ENABLED');
  await reserveLoginAttempt(svc, { email: user.email });
  const step = stepOf(svc, open(secretKey(svc), SEAL_PURPOSE, pending.secret), params.code);
  if (step === null) throw invalidMfaCode();
  const now = svc.clock.now();
  const codes = newRecoveryCodes();
  await svc.db.transaction(async (tx) => {
    // the secret that was checked must still be the pending one: a restart meanwhile wins
    const confirmed = await tx
      .update(totpFactors)
      .set({ confirmedAt: now, lastUsedStep: step })
      .where(
        and(
          eq(totpFactors.userId, user.id),
          isNull(totpFactors.confirmedAt),
          eq(totpFactors.secret, pending.secret),
        ),
      )
      .returning({ userId: totpFactors.userId });
    if (!confirmed.length) throw conflict('The set-up changed meanwhile; start again', 'NO_TOTP_ENROLMENT');
    await storeRecoveryCodes(svc, tx, user.id, codes, now);
    await endSessionsExcept(tx, user.id, principal.credentialId, now);
    await clearLoginThrottle(tx, user.email);
    await recordAccountEvent(tx, {
      userId: user.id,
      kind: 'factor_added',
      detail: { kind: 'totp' },
      ...params.client,
      at: now,
    });
    await enqueueEmail(tx, {
      to: user.email,
      ...secondFactorEmail({ appUrl: svc.config.appUrl, firstName: user.firstName, change: 'enabled' }),
    });
  });
  return { recoveryCodes: codes };
}

async function storeRecoveryCodes(svc: Services, tx: DbOrTx, userId: string, codes: string[], now: Date) {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx
    .insert(recoveryCodes)
    .values(codes.map((c) => ({ userId, codeHash: hashRecoveryCode(secretKey(svc), c), createdAt: now })));
}

/**
 * A signed-in owner proves the factor again (a current code, or a recovery code when the phone is gone)
 * for what changes it: turning it off, new recovery codes, a new email address for an account without a
 * password. The code is taken in the caller's transaction (a TOTP step or a recovery code works once).
 * Callers count the attempt toward the throttle first; a wrong code is their 400 `INVALID_MFA_CODE`, not
 * a 401 (the caller is signed in, and clients read 401 as "sign in again").
 */
export async function proveSecondFactor(svc: Services, tx: DbOrTx, userId: string, code: string) {
  const trimmed = code.trim();
  return /^\d{6}$/.test(trimmed)
    ? acceptTotpCode(svc, tx, userId, trimmed)
    : spendRecoveryCode(svc, tx, userId, trimmed);
}

/**
 * A change to a confirmed factor (turning it off, new recovery codes): the account must have one, the
 * attempt counts toward the throttle, and the proof, the change, the throttle's clearing and the owner's
 * mail are one transaction.
 */
async function changeConfirmedFactor(
  svc: Services,
  params: { principal: Principal; code: string; client?: SessionClient | undefined },
  change: 'disabled' | 'recovery_codes',
  apply: (tx: DbOrTx, userId: string) => Promise<void>,
) {
  const { principal } = params;
  assertSession(principal);
  const user = await userOf(svc, principal.userId);
  const [factor] = await svc.db.select().from(totpFactors).where(eq(totpFactors.userId, user.id)).limit(1);
  if (!factor?.confirmedAt) throw conflict('Two-factor sign-in is not on', 'TOTP_NOT_ENABLED');
  await reserveLoginAttempt(svc, { email: user.email });
  await svc.db.transaction(async (tx) => {
    if (!(await proveSecondFactor(svc, tx, user.id, params.code))) throw invalidMfaCode();
    await apply(tx, user.id);
    await clearLoginThrottle(tx, user.email);
    await recordAccountEvent(tx, {
      userId: user.id,
      ...(change === 'disabled'
        ? { kind: 'factor_removed', detail: { kind: 'totp' } }
        : { kind: 'recovery_codes_renewed' }),
      ...params.client,
      at: svc.clock.now(),
    });
    await enqueueEmail(tx, {
      to: user.email,
      ...secondFactorEmail({ appUrl: svc.config.appUrl, firstName: user.firstName, change }),
    });
  });
}

export async function disableTotp(
  svc: Services,
  params: { principal: Principal; code: string; client?: SessionClient | undefined },
) {
  await changeConfirmedFactor(svc, params, 'disabled', async (tx, userId) => {
    await tx.delete(totpFactors).where(eq(totpFactors.userId, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.delete(mfaChallenges).where(eq(mfaChallenges.userId, userId));
  });
}

export async function regenerateRecoveryCodes(
  svc: Services,
  params: { principal: Principal; code: string; client?: SessionClient | undefined },
) {
  const codes = newRecoveryCodes();
  await changeConfirmedFactor(svc, params, 'recovery_codes', (tx, userId) =>
    storeRecoveryCodes(svc, tx, userId, codes, svc.clock.now()),
  );
  return { recoveryCodes: codes };
}
