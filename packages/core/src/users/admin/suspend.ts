import { users } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { writeAudit } from '../../audit/write-audit';
import { recordAccountEvent } from '../../auth/activity';
import { endSessions } from '../../auth/sessions';
import { enqueueEmail } from '../../mail/outbox';
import { accountNoticeEmail } from '../../mail/templates';
import type { Services } from '../../services';
import { conflict } from '../../shared/errors';
import { lockLiveUser } from '../access';

/**
 * Admin: active or pending_verification → suspended. The status before is kept for reactivation; the
 * user's sessions end at once and their access tokens are refused while suspended (they work again
 * after reactivation); the owner is mailed, one account event and one audit row, all in one transaction.
 */
export async function suspendUser(svc: Services, params: { adminId: string; id: string; reason: string }) {
  const now = svc.clock.now();
  return svc.db.transaction(async (tx) => {
    const user = await lockLiveUser(tx, params.id);
    if (user.id === params.adminId)
      throw conflict('Administrators cannot suspend themselves', 'SELF_SUSPEND');
    if (user.status === 'suspended') throw conflict('The user is already suspended', 'ALREADY_SUSPENDED');
    const [updated] = await tx
      .update(users)
      .set({
        status: 'suspended',
        statusBeforeSuspension: user.status,
        suspendedAt: now,
        suspensionReason: params.reason,
        suspendedBy: params.adminId,
        reactivatedAt: null,
        reactivatedBy: null,
        updatedAt: now,
      })
      .where(eq(users.id, user.id))
      .returning();
    await endSessions(tx, { userId: user.id });
    // the admin's address is not the owner's to see: no client on an event an admin caused
    await recordAccountEvent(tx, { userId: user.id, kind: 'suspended', detail: { by: 'admin' }, at: now });
    await enqueueEmail(tx, {
      to: user.email,
      ...accountNoticeEmail({
        appUrl: svc.config.appUrl,
        firstName: user.firstName,
        notice: 'suspended',
        reason: params.reason,
      }),
    });
    await writeAudit(tx, {
      actorId: params.adminId,
      action: 'user.suspend',
      targetId: user.id,
      reason: params.reason,
      details: { from: user.status },
      at: now,
    });
    return { id: user.id, status: updated!.status, suspendedAt: now.toISOString() };
  });
}
