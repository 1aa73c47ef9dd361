import { ownerWalletOf } from '@plenum/core';
import { callerOf, type RouteContext } from '../../http/routes';

/** The wallet a storage write acts for: the caller's primary wallet (403 WALLET_REQUIRED without one). */
export function writerWallet(rc: RouteContext): Promise<string> {
  return ownerWalletOf(rc.svc, { userId: callerOf(rc).userId });
}
