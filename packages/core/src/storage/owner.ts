import { primaryWalletOf } from '../auth/wallets';
import type { Services } from '../services';
import { forbidden } from '../shared/errors';
import type { SessionEntity } from './internal-events';

/**
 * Storage writes act for the caller's primary wallet (docs/storage.md, "Who may write"); no wallet → 403
 * WALLET_REQUIRED.
 */
export async function ownerWalletOf(svc: Pick<Services, 'db'>, params: { userId: string }): Promise<string> {
  const wallet = await primaryWalletOf(svc.db, params.userId);
  if (!wallet)
    throw forbidden('Link a wallet first: storage acts for your wallet address', 'WALLET_REQUIRED');
  return wallet;
}

export async function sessionEntityOf(
  svc: Pick<Services, 'db'>,
  params: { userId: string | null | undefined },
): Promise<SessionEntity | null> {
  const { userId } = params;
  if (!userId) return null;
  return { userId, walletId: await primaryWalletOf(svc.db, userId) };
}
