import { users, wallets } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { findUserByEmail } from '../accounts/find-by-email';
import { serializeUser } from '../accounts/serialize';
import type { Services } from '../services';
import { AppError, forbidden, unauthorized } from '../shared/errors';
import { clearLoginThrottle, reserveLoginAttempt } from './login-throttle';
import { dummyPasswordHash, verifyPassword } from './password';
import { checkingPasswords } from './password-gate';
import { createSession, type SessionClient } from './sessions';
import { verifySiwe } from './siwe';

const invalidCredentials = () => unauthorized('Invalid email or password', 'INVALID_CREDENTIALS');

async function startSession(svc: Services, user: typeof users.$inferSelect, client?: SessionClient) {
  const now = svc.clock.now();
  return svc.db.transaction(async (tx) => {
    const session = await createSession(svc, tx, user.id, client);
    const [updated] = await tx
      .update(users)
      .set({ lastLoginAt: now })
      .where(eq(users.id, user.id))
      .returning();
    return {
      token: session.token,
      expiresAt: session.expiresAt.toISOString(),
      user: serializeUser(updated ?? user),
    };
  });
}

/**
 * Unknown email and wrong password answer the same 401 after the same argon2 work; both count toward
 * the email's throttle, counted before any password is verified (docs/accounts.md, "Password guessing"),
 * and the check waits its turn in the client's share of the password checks (password-gate.ts).
 */
export async function login(
  svc: Services,
  params: { email: string; password: string; client?: SessionClient },
) {
  const user = await findUserByEmail(svc.db, params.email);
  const hash = user?.passwordHash ?? (await dummyPasswordHash());
  const ok = await checkingPasswords(svc, params.client?.ip ?? null, async () => {
    // counted as a failure before the check (a right password clears it below)
    await reserveLoginAttempt(svc, { email: params.email });
    return verifyPassword(hash, params.password);
  });
  if (!user || !ok || user.deletedAt) throw invalidCredentials();
  await clearLoginThrottle(svc.db, params.email);
  if (user.status === 'suspended') throw forbidden('This account is suspended', 'ACCOUNT_SUSPENDED');
  return startSession(svc, user, params.client);
}

export async function siweLogin(
  svc: Services,
  params: { message: string; signature: string; client?: SessionClient },
) {
  const { address } = await verifySiwe(svc, params);
  const [row] = await svc.db
    .select({ user: users })
    .from(wallets)
    .innerJoin(users, eq(users.id, wallets.userId))
    .where(eq(wallets.address, address))
    .limit(1);
  if (!row) throw unauthorized('This wallet is not linked to an account', 'WALLET_NOT_LINKED');
  // the wallet stays linked to the deleted account (it may not vote either, docs/governance.md, "Votes"), so
  // it is not offered for a new registration: it cannot be linked again
  if (row.user.deletedAt) throw unauthorized('This wallet belongs to a deleted account', 'ACCOUNT_DELETED');
  if (row.user.status === 'suspended') throw forbidden('This account is suspended', 'ACCOUNT_SUSPENDED');
  if (!row.user) throw new AppError('INTERNAL_SERVER_ERROR', 'no user');
  return startSession(svc, row.user, params.client);
}
