import type { StorageServices } from './runtime';

/**
 * SEAM for quotas (issue 30, item 1; docs/storage.md, "Folders and several files" and "CAR import"):
 * called once the total size of a folder upload or a CAR import is known and accepted, before the node
 * stores or pins anything of it, with the bytes about to be pinned for `owner`. Throwing an AppError here
 * refuses the whole upload: nothing reaches the node and no record is written. Today no quota applies.
 */
export async function assertStorageAllowance(
  _svc: StorageServices,
  _params: { userId: string; owner: string; bytes: number },
): Promise<void> {}
