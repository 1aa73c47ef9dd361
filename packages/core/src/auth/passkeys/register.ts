import { passkeyChallenges, passkeys, users } from '@plenum/db';
import type { passkeyRegistrationResponse } from '@plenum/validators';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { enqueueEmail } from '../../mail/outbox';
import { passkeyEmail } from '../../mail/templates';
import type { Services } from '../../services';
import { badRequest, conflict, notFound } from '../../shared/errors';
import { recordAccountEvent } from '../activity';
import { hasSecondFactor } from '../factors';
import type { Principal, SessionClient } from '../sessions';
import { lockAccount } from '../sign-in-methods';
import { assertSession, endSessionsExcept } from '../user-sessions';
import { PASSKEY_TIMEOUT_MS, relyingParty, spendChallenge, storeChallenge } from './challenges';
import { passkeyView } from './manage';
import { type WebAuthn, webauthn } from './webauthn';

const DEFAULT_NAME = 'Passkey';

const verificationFailed = (why: string) =>
  badRequest(`The passkey could not be verified: ${why}`, undefined, 'PASSKEY_VERIFICATION_FAILED');

/** the WebAuthn user handle: the account's id as bytes (no email or name in it) */
const userHandle = (userId: string) => Buffer.from(userId.replaceAll('-', ''), 'hex');

/**
 * POST /auth/passkeys/register/options (docs/accounts.md, "Passkeys"): creation options for a
 * discoverable credential (resident key required, user verification preferred) that excludes the
 * account's passkeys, so an authenticator holding one says so instead of making a second.
 */
export async function passkeyRegistrationOptions(
  svc: Services,
  params: { principal: Principal; name?: string | undefined },
) {
  const { principal } = params;
  assertSession(principal);
  const [user] = await svc.db.select().from(users).where(eq(users.id, principal.userId)).limit(1);
  if (!user || user.deletedAt) throw notFound('No such user');
  const mine = await svc.db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id));
  const rp = relyingParty(svc);
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: userHandle(user.id),
    userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.email,
    timeout: PASSKEY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: mine.map((p) => ({ id: p.credentialId, transports: p.transports ?? undefined })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await storeChallenge(svc, {
    challenge: options.challenge,
    purpose: 'register',
    userId: user.id,
    name: params.name,
  });
  return options;
}

/**
 * POST /auth/passkeys/register: checks the authenticator's answer against a challenge this account was
 * given (spent by this answer, right or wrong), APP_URL's origin and rp id; stores the public key.
 * The account's first second factor ends its other sessions (they were opened with a password alone,
 * as TOTP's set-up does); a further passkey does not. The owner is mailed either way.
 */
export async function registerPasskey(
  svc: Services,
  params: {
    principal: Principal;
    response: z.output<typeof passkeyRegistrationResponse>;
    name?: string | undefined;
    client?: SessionClient | undefined;
  },
) {
  const { principal } = params;
  assertSession(principal);
  const spent = await spendChallenge(
    svc,
    svc.db,
    params.response.response.clientDataJSON,
    'register',
    eq(passkeyChallenges.userId, principal.userId),
  );
  if (!spent) throw verificationFailed('the challenge is unknown, used or expired; start again');
  const rp = relyingParty(svc);
  let verified: Awaited<ReturnType<WebAuthn['verifyRegistrationResponse']>>;
  try {
    verified = await (await webauthn()).verifyRegistrationResponse({
      response: params.response,
      expectedChallenge: spent.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (err) {
    throw verificationFailed(err instanceof Error ? err.message : 'invalid answer');
  }
  if (!verified.verified) throw verificationFailed('invalid answer');
  const info = verified.registrationInfo;
  const name = params.name ?? spent.row.name ?? DEFAULT_NAME;
  const now = svc.clock.now();
  return svc.db.transaction(async (tx) => {
    await lockAccount(tx, principal.userId);
    const first = !(await hasSecondFactor(tx, principal.userId));
    const [row] = await tx
      .insert(passkeys)
      .values({
        userId: principal.userId,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: info.credential.transports ?? params.response.response.transports ?? null,
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        name,
        createdAt: now,
      })
      .onConflictDoNothing({ target: passkeys.credentialId })
      .returning();
    if (!row) throw conflict('This passkey is registered already', 'PASSKEY_ALREADY_REGISTERED');
    if (first) await endSessionsExcept(tx, principal.userId, principal.credentialId, now);
    await recordAccountEvent(tx, {
      userId: principal.userId,
      kind: 'factor_added',
      detail: { kind: 'passkey', name },
      ...params.client,
      at: now,
    });
    const [user] = await tx.select().from(users).where(eq(users.id, principal.userId));
    if (user)
      await enqueueEmail(tx, {
        to: user.email,
        ...passkeyEmail({
          appUrl: svc.config.appUrl,
          firstName: user.firstName,
          change: 'added',
          name,
          sessionsEnded: first,
        }),
      });
    return passkeyView(row);
  });
}
