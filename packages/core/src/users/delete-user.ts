import { users } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { writeAudit } from '../audit/write-audit';
import { endAllSessions } from '../auth/sessions';
import type { Services } from '../services';
import { AppError } from '../shared/errors';
import { type Actor, assertOwnerOrAdmin, lockLiveUser } from './access';
import { deletionBlockers } from './deletion-guards';

/**
 * DELETE /users/{id}: owner or admin. Soft delete: the row stays (its email stays taken), `deletedAt`
 * marks it, every session and access token ends in the same transaction. Blocked (409) while another
 * domain reports an active dependency (see deletion-guards.ts).
 */
export async function deleteUser(svc: Services, params: { actor: Actor; id: string }) {
  const now = svc.clock.now();
  await svc.db.transaction(async (tx) => {
    // the lock makes a concurrent delete wait and then see the user as already gone (404)
    const user = await lockLiveUser(tx, params.id);
    assertOwnerOrAdmin(params.actor, user.id);
    const blockers = await deletionBlockers(svc.deletionGuards, tx, user.id);
    if (blockers.length) {
      const list = blockers.map((b) => b.message).join('; ');
      throw new AppError('CONFLICT', `The account cannot be deleted: ${list}`, {
        reason: 'HAS_ACTIVE_DEPENDENCIES',
        issues: blockers,
      });
    }
    await tx.update(users).set({ deletedAt: now, updatedAt: now }).where(eq(users.id, user.id));
    await endAllSessions(tx, { userId: user.id, at: now });
    if (params.actor.role === 'admin' && params.actor.userId !== user.id) {
      await writeAudit(tx, {
        actorId: params.actor.userId,
        action: 'user.delete',
        targetId: user.id,
        at: now,
      });
    }
  });
}
