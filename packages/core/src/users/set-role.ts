import { users } from '@plenum/db';
import { eq, inArray } from 'drizzle-orm';
import { normalizeEmail } from '../accounts/find-by-email';
import { writeAudit } from '../audit/write-audit';
import type { Services } from '../services';
import { notFound } from '../shared/errors';

/** CLI: grant or revoke admin by email. Audited with no actor (an operator at the console). */
export async function setRoleByEmail(svc: Services, params: { email: string; role: 'user' | 'admin' }) {
  const email = normalizeEmail(params.email);
  const now = svc.clock.now();
  return svc.db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ role: params.role, updatedAt: now })
      .where(eq(users.email, email))
      .returning();
    if (!user) throw notFound(`No user with email ${email}`);
    await writeAudit(tx, {
      actorId: null,
      action: params.role === 'admin' ? 'user.grant_admin' : 'user.revoke_admin',
      targetId: user.id,
      reason: 'command line',
      at: now,
    });
    return { id: user.id, email: user.email, role: user.role };
  });
}

/** ADMIN_EMAILS bootstrap: those accounts are admins (checked at every start). */
export async function applyAdminEmails(svc: Services) {
  if (!svc.config.adminEmails.length) return;
  await svc.db.update(users).set({ role: 'admin' }).where(inArray(users.email, svc.config.adminEmails));
}
