import { users } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { writeAudit } from '../../audit/write-audit';
import type { Services } from '../../services';
import { conflict } from '../../shared/errors';
import { lockLiveUser } from '../access';

/**
 * Admin: suspended → the status before the suspension (active, or pending_verification if the email is
 * still unproven). Suspension fields cleared, reactivatedAt/By set, one audit row, one transaction.
 */
export async function reactivateUser(
  svc: Services,
  params: { adminId: string; id: string; reason?: string | undefined },
) {
  const now = svc.clock.now();
  return svc.db.transaction(async (tx) => {
    const user = await lockLiveUser(tx, params.id);
    if (user.status !== 'suspended') throw conflict('The user is not suspended', 'NOT_SUSPENDED');
    const status = user.emailVerified ? 'active' : (user.statusBeforeSuspension ?? 'pending_verification');
    await tx
      .update(users)
      .set({
        status,
        statusBeforeSuspension: null,
        suspendedAt: null,
        suspensionReason: null,
        suspendedBy: null,
        reactivatedAt: now,
        reactivatedBy: params.adminId,
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    await writeAudit(tx, {
      actorId: params.adminId,
      action: 'user.reactivate',
      targetId: user.id,
      reason: params.reason,
      details: { to: status, suspendedAt: user.suspendedAt?.toISOString() ?? null },
      at: now,
    });
    return { id: user.id, status, reactivatedAt: now.toISOString() };
  });
}
