import { type DbOrTx, passkeys, userIdentities, users, wallets } from '@plenum/db';
import { and, count, eq, isNull } from 'drizzle-orm';
import { unauthorized } from '../shared/errors';
import { hasPassword } from './password/hash';

/**
 * The account's row, locked for the rest of the transaction: every change to its ways to sign in takes
 * it first, so two removals at once run one after the other and the second counts what the first left.
 */
export async function lockAccount(tx: DbOrTx, userId: string) {
  const [user] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .for('update');
  if (!user) throw unauthorized('This account has been deleted', 'ACCOUNT_DELETED');
}

/**
 * How many ways the account has to sign in: its password (unless it has none, see docs/accounts.md,
 * "Accounts without a password"), each linked wallet, each passkey and each identity at an OpenID provider. A
 * removal that would leave none is refused (docs/accounts.md, "Ways to sign in"); call it under lockAccount. A new
 * sign-in method adds its count here.
 */
export async function countSignInMethods(tx: DbOrTx, userId: string): Promise<number> {
  const [[user], [linked], [keys], [identities]] = await Promise.all([
    tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)),
    tx.select({ n: count() }).from(wallets).where(eq(wallets.userId, userId)),
    tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId)),
    tx.select({ n: count() }).from(userIdentities).where(eq(userIdentities.userId, userId)),
  ]);
  return (user && hasPassword(user) ? 1 : 0) + (linked?.n ?? 0) + (keys?.n ?? 0) + (identities?.n ?? 0);
}
