import { users } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { writeAudit } from '../../audit/write-audit';
import { recordAccountEvent } from '../../auth/activity';
import { enqueueEmail } from '../../mail/outbox';
import { accountNoticeEmail } from '../../mail/templates';
import type { Services } from '../../services';
import { conflict } from '../../shared/errors';
import { lockLiveUser } from '../access';

/**
 * Admin: suspended → the status before the suspension (active, or pending_verification if the email is
 * still unproven). Suspension fields cleared, reactivatedAt/By set, the owner mailed, one account event
 * and one audit row, one transaction.
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
    await recordAccountEvent(tx, { userId: user.id, kind: 'reactivated', detail: { by: 'admin' }, at: now });
    await enqueueEmail(tx, {
      to: user.email,
      ...accountNoticeEmail({ appUrl: svc.config.appUrl, firstName: user.firstName, notice: 'reactivated' }),
    });
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
