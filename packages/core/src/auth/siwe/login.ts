import { users, wallets } from '@plenum/db';
import { eq } from 'drizzle-orm';
import type { Services } from '../../services';
import { AppError, forbidden, unauthorized } from '../../shared/errors';
import { finishFirstFactor } from '../second-factor';
import type { SessionClient } from '../sessions';
import { verifySiwe } from './verify';

/** Sign-In with Ethereum: a signed message from a wallet linked to the account (docs/accounts.md). */
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
  return finishFirstFactor(svc, row.user, 'siwe', params.client);
}
