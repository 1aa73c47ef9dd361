import { type DbOrTx, users } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { serializeUser } from '../accounts/serialize';
import type { Services } from '../services';
import { recordAccountEvent } from './activity';
import { createSession, type SessionClient } from './sessions';

/**
 * How a sign-in was proven, as its `sign_in` event names it (docs/accounts.md, "Account activity"); a
 * second factor's sign-in (`mfa`) is recorded by its own statement (mfa/login.ts).
 */
export type SignInMethod = 'password' | 'siwe' | 'passkey' | 'oidc';

/** a sign-in in two steps finished by a passkey: the first factor it followed (mfa/login.ts records the codes') */
export type SignInProof = SignInMethod | { method: 'mfa'; firstFactor: string; secondFactor: 'passkey' };

/**
 * What every sign-in method ends with once it has proven who the caller is: a new session, the account's
 * last sign-in time, its `sign_in` event, and the answer `{ token, expiresAt, user }` (docs/accounts.md,
 * "Signing in").
 */
export async function startSession(
  svc: Services,
  user: typeof users.$inferSelect,
  client: SessionClient | undefined,
  method: SignInProof,
) {
  return svc.db.transaction((tx) => startSessionIn(svc, tx, user, client, method));
}

/** the same within the caller's transaction */
export async function startSessionIn(
  svc: Services,
  tx: DbOrTx,
  user: typeof users.$inferSelect,
  client: SessionClient | undefined,
  proof: SignInProof,
) {
  const now = svc.clock.now();
  const session = await createSession(svc, tx, user.id, client);
  const [updated] = await tx.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id)).returning();
  await recordAccountEvent(tx, {
    userId: user.id,
    kind: 'sign_in',
    detail: typeof proof === 'string' ? { method: proof } : proof,
    ...client,
    at: now,
  });
  return {
    token: session.token,
    expiresAt: session.expiresAt.toISOString(),
    user: serializeUser(updated ?? user),
  };
}
