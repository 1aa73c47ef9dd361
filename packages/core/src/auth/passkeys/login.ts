import { mfaChallenges, passkeyChallenges, passkeys, users } from '@plenum/db';
import type { passkeyAuthenticationResponse } from '@plenum/validators';
import { and, eq, gt, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Services } from '../../services';
import { forbidden, unauthorized } from '../../shared/errors';
import { hashToken } from '../../shared/tokens';
import type { SessionClient } from '../sessions';
import { startSessionIn } from '../start-session';
import { clearLoginThrottle, reserveLoginAttempt } from '../throttle';
import { PASSKEY_TIMEOUT_MS, relyingParty, spendChallenge, storeChallenge } from './challenges';
import { type WebAuthn, webauthn } from './webauthn';

type Assertion = z.output<typeof passkeyAuthenticationResponse>;

/** one answer for an unknown passkey, a bad signature and a used or expired challenge: no enumeration */
const invalidPasskey = () => unauthorized('This passkey could not sign you in; try again', 'PASSKEY_INVALID');
const counterInvalid = () =>
  unauthorized(
    'This passkey’s signature counter went backwards: it may have been copied. Use another way to sign in and remove it.',
    'PASSKEY_COUNTER_INVALID',
  );
const invalidChallenge = () =>
  unauthorized('This sign-in has expired or is complete; sign in again', 'MFA_TOKEN_INVALID');

const userHandleOf = (userId: string) => Buffer.from(userId.replaceAll('-', ''), 'hex').toString('base64url');

/**
 * POST /auth/passkeys/login/options (docs/accounts.md, "Passkeys"). Without `mfaToken`: options for a
 * usernameless sign-in (no allowCredentials: the authenticator offers the passkeys it holds for this rp,
 * with user verification). With it: the second step of a sign-in, listing that account's passkeys.
 * The challenge is the handle: the answer carries it, and the server finds its row by the challenge's hash.
 */
export async function passkeyLoginOptions(svc: Services, params: { mfaToken?: string | undefined }) {
  const rp = relyingParty(svc);
  if (!params.mfaToken) {
    const options = await (await webauthn()).generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: [],
      userVerification: 'required',
      timeout: PASSKEY_TIMEOUT_MS,
    });
    await storeChallenge(svc, { challenge: options.challenge, purpose: 'login' });
    return options;
  }
  const mfaTokenHash = hashToken(params.mfaToken);
  const [pending] = await svc.db
    .select({ userId: mfaChallenges.userId })
    .from(mfaChallenges)
    .where(and(eq(mfaChallenges.tokenHash, mfaTokenHash), gt(mfaChallenges.expiresAt, svc.clock.now())));
  if (!pending) throw invalidChallenge();
  const mine = await svc.db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, pending.userId));
  if (!mine.length) throw invalidPasskey();
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: mine.map((p) => ({
      id: p.credentialId,
      transports: p.transports ?? undefined,
    })),
    userVerification: 'preferred',
    timeout: PASSKEY_TIMEOUT_MS,
  });
  await storeChallenge(svc, {
    challenge: options.challenge,
    purpose: 'mfa',
    userId: pending.userId,
    mfaTokenHash,
  });
  return options;
}

/**
 * The library's check of an assertion against a stored passkey, then the counter: the signature is
 * verified first (with the counter left out), so only a genuine signature whose counter did not grow
 * is called a copy (PASSKEY_COUNTER_INVALID); anything else is PASSKEY_INVALID.
 */
async function verifyAssertion(
  svc: Services,
  params: {
    response: Assertion;
    challenge: string;
    passkey: typeof passkeys.$inferSelect;
    requireUserVerification: boolean;
  },
) {
  const rp = relyingParty(svc);
  const { passkey } = params;
  let info: Awaited<ReturnType<WebAuthn['verifyAuthenticationResponse']>>['authenticationInfo'];
  try {
    const result = await (await webauthn()).verifyAuthenticationResponse({
      response: params.response,
      expectedChallenge: params.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: 0,
      },
      requireUserVerification: params.requireUserVerification,
    });
    if (!result.verified) throw invalidPasskey();
    info = result.authenticationInfo;
  } catch {
    throw invalidPasskey();
  }
  if ((info.newCounter > 0 || passkey.counter > 0) && info.newCounter <= passkey.counter)
    throw counterInvalid();
  return info;
}

/**
 * Records a passkey's use: its new counter, backed-up state and last use, only if the counter still is
 * below the new one (two answers with the same counter at once: one wins, the other is a copy).
 */
async function recordUse(
  tx: Parameters<Parameters<Services['db']['transaction']>[0]>[0],
  passkey: typeof passkeys.$inferSelect,
  info: { newCounter: number; credentialBackedUp: boolean },
  now: Date,
) {
  const updated = await tx
    .update(passkeys)
    .set({ counter: info.newCounter, backedUp: info.credentialBackedUp, lastUsedAt: now })
    .where(
      and(
        eq(passkeys.id, passkey.id),
        or(
          sql`${passkeys.counter} < ${info.newCounter}`,
          and(eq(passkeys.counter, 0), sql`${info.newCounter} = 0`),
        ),
      ),
    )
    .returning({ id: passkeys.id });
  if (!updated.length) throw counterInvalid();
}

/**
 * POST /auth/passkeys/login: a usernameless sign-in. The challenge is spent first (the same answer sent
 * many times at once signs in once), then the passkey found by its credential id, its signature checked
 * with user verification required (a passkey stands for both factors), and the session started as
 * `POST /auth/login` starts it. A suspended account: 403 after the check, as the password sign-in does.
 */
export async function passkeyLogin(svc: Services, params: { response: Assertion; client?: SessionClient }) {
  const { response } = params;
  const spent = await spendChallenge(svc, svc.db, response.response.clientDataJSON, 'login');
  if (!spent) throw invalidPasskey();
  const [found] = await svc.db
    .select({ passkey: passkeys, user: users })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(eq(passkeys.credentialId, response.id))
    .limit(1);
  if (!found || found.user.deletedAt) throw invalidPasskey();
  const { passkey, user } = found;
  if (response.response.userHandle && response.response.userHandle !== userHandleOf(user.id))
    throw invalidPasskey();
  const info = await verifyAssertion(svc, {
    response,
    challenge: spent.challenge,
    passkey,
    requireUserVerification: true,
  });
  if (user.status === 'suspended') throw forbidden('This account is suspended', 'ACCOUNT_SUSPENDED');
  return svc.db.transaction(async (tx) => {
    await recordUse(tx, passkey, info, svc.clock.now());
    await clearLoginThrottle(tx, user.email);
    return startSessionIn(svc, tx, user, params.client, 'passkey');
  });
}

/**
 * The second step of a sign-in answered with a passkey (`POST /auth/login/mfa` with `passkey`): the
 * options came from `POST /auth/passkeys/login/options` with the same `mfaToken`, and the passkey must be
 * the account's. The attempt counts toward the account's sign-in throttle, as a code does; the passkey's
 * use, the challenge's spending and the session are one transaction.
 */
export async function completeMfaWithPasskey(
  svc: Services,
  params: { mfaToken: string; response: Assertion; client?: SessionClient },
) {
  const tokenHash = hashToken(params.mfaToken);
  const [pending] = await svc.db
    .select({ user: users, firstFactor: mfaChallenges.method })
    .from(mfaChallenges)
    .innerJoin(users, eq(users.id, mfaChallenges.userId))
    .where(and(eq(mfaChallenges.tokenHash, tokenHash), gt(mfaChallenges.expiresAt, svc.clock.now())))
    .limit(1);
  if (!pending || pending.user.deletedAt) throw invalidChallenge();
  const { user, firstFactor } = pending;
  if (user.status === 'suspended') throw forbidden('This account is suspended', 'ACCOUNT_SUSPENDED');
  await reserveLoginAttempt(svc, { email: user.email });
  const { response } = params;
  const spent = await spendChallenge(
    svc,
    svc.db,
    response.response.clientDataJSON,
    'mfa',
    and(eq(passkeyChallenges.mfaTokenHash, tokenHash), eq(passkeyChallenges.userId, user.id)),
  );
  if (!spent) throw invalidPasskey();
  const [passkey] = await svc.db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.credentialId, response.id), eq(passkeys.userId, user.id)))
    .limit(1);
  if (!passkey) throw invalidPasskey();
  const info = await verifyAssertion(svc, {
    response,
    challenge: spent.challenge,
    passkey,
    requireUserVerification: false,
  });
  return svc.db.transaction(async (tx) => {
    const now = svc.clock.now();
    const taken = await tx
      .delete(mfaChallenges)
      .where(and(eq(mfaChallenges.tokenHash, tokenHash), gt(mfaChallenges.expiresAt, now)))
      .returning({ userId: mfaChallenges.userId });
    if (!taken.length) throw invalidChallenge();
    await recordUse(tx, passkey, info, now);
    await clearLoginThrottle(tx, user.email);
    return startSessionIn(svc, tx, user, params.client, {
      method: 'mfa',
      firstFactor,
      secondFactor: 'passkey',
    });
  });
}
