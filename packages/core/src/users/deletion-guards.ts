import type { DbOrTx } from '@plenum/db';
import { ownsActiveDaoGuard } from '../governance/deletion-guard';

/**
 * Checks that can block deleting a user ("user has no active dependencies"). Each returns a message
 * naming the dependency, or null. Other domains extend the list (governance: owner of an ACTIVE DAO).
 */
export type DeletionGuard = (db: DbOrTx, userId: string) => Promise<string | null>;

export const deletionGuards: DeletionGuard[] = [ownsActiveDaoGuard];

/** Messages of every guard that blocks deletion; empty when the user may be deleted. */
export async function deletionBlockers(db: DbOrTx, userId: string): Promise<string[]> {
  const results = await Promise.all(deletionGuards.map((guard) => guard(db, userId)));
  return results.filter((r): r is string => r !== null);
}
