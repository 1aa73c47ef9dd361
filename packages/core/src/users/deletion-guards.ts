import type { DbOrTx } from '@plenum/db';
import { ownsActiveDaoGuard } from '../governance/deletion-guard';
import type { FieldIssue } from '../shared/errors';

/**
 * Checks that can block deleting a user ("user has no active dependencies"). Each returns a message
 * naming the dependency (or the issue with its own code and params), or null. Other domains extend the
 * list (governance: owner of an ACTIVE DAO); the service container holds it (`svc.deletionGuards`).
 */
export type Blocker = string | Required<Pick<FieldIssue, 'message' | 'code' | 'params'>>;
export type DeletionGuard = (db: DbOrTx, userId: string) => Promise<Blocker | null>;

export const deletionGuards: readonly DeletionGuard[] = [ownsActiveDaoGuard];

/** The issue of every guard that blocks deletion; empty when the user may be deleted. */
export async function deletionBlockers(
  guards: readonly DeletionGuard[],
  db: DbOrTx,
  userId: string,
): Promise<FieldIssue[]> {
  const results = await Promise.all(guards.map((guard) => guard(db, userId)));
  return results
    .filter((r): r is Blocker => r !== null)
    .map((r) =>
      typeof r === 'string' ? { path: '', message: r, code: 'active_dependency' } : { path: '', ...r },
    );
}
