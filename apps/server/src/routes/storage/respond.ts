import { storageOf } from '@plenum/api';
import { ownerWalletOf, type StorageServices } from '@plenum/core';
import { callerOf, type RouteContext } from '../../http/routes';

/** the services with their storage runtime; 503 STORAGE_UNAVAILABLE while it is not running */
export const storageServices = (rc: RouteContext): StorageServices => storageOf(rc);

/** The wallet a storage write acts for: the caller's primary wallet (403 WALLET_REQUIRED without one). */
export function writerWallet(rc: RouteContext): Promise<string> {
  return ownerWalletOf(rc.svc, { userId: callerOf(rc).userId });
}
