import { AppError, type StorageServices } from '@plenum/core';
import type { ApiServices, Context } from '../context';

const hasStorage = (svc: ApiServices): svc is ApiServices & StorageServices => svc.storage !== null;

/** the services with their storage runtime; 503 while it is not running */
export function storageOf(ctx: Pick<Context, 'svc'>): StorageServices {
  if (!hasStorage(ctx.svc))
    throw new AppError('SERVICE_UNAVAILABLE', 'IPFS storage is not running', {
      reason: 'STORAGE_UNAVAILABLE',
    });
  return ctx.svc;
}
