import { type DbOrTx, users } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { serializeUser } from '../accounts/serialize';
import type { Services } from '../services';
import { createSession, type SessionClient } from './sessions';

/**
 * What every sign-in method ends with once it has proven who the caller is: a new session, the account's
 * last sign-in time, and the answer `{ token, expiresAt, user }` (docs/accounts.md, "Signing in").
 */
export async function startSession(svc: Services, user: typeof users.$inferSelect, client?: SessionClient) {
  return svc.db.transaction((tx) => startSessionIn(svc, tx, user, client));
}

/** the same within the caller's transaction (a second factor's sign-in spends its challenge in it) */
export async function startSessionIn(
  svc: Services,
  tx: DbOrTx,
  user: typeof users.$inferSelect,
  client?: SessionClient,
) {
  const now = svc.clock.now();
  const session = await createSession(svc, tx, user.id, client);
  const [updated] = await tx.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id)).returning();
  return {
    token: session.token,
    expiresAt: session.expiresAt.toISOString(),
    user: serializeUser(updated ?? user),
  };
}
