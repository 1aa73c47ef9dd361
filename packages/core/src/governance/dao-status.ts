import { type DbOrTx, daos, users, wallets } from '@plenum/db';
import { and, eq, isNull } from 'drizzle-orm';
import { writeAudit } from '../audit/write-audit';
import type { Principal } from '../auth/sessions';
import { daoDecisionEmail } from '../mail/dao-decision-template';
import { enqueueEmail } from '../mail/outbox';
import type { Services } from '../services';
import { conflict, forbidden } from '../shared/errors';
import { actingAs } from './dao-authority';
import { getDao } from './dao-queries';
import { type Changes, recordDaoChange } from './history';
import { type DaoRow, requireDao } from './rows';

/**
 * POST /daos/{daoId}/status: the owner or a DAO admin (through one of their wallets), or a platform admin, switches ACTIVE ↔
 * INACTIVE. A PENDING DAO leaves the queue only through an admin (approval, rejection or this call), and
 * a rejected one comes back only through an admin.
 */
export async function setDaoStatus(
  svc: Services,
  params: {
    principal: Principal;
    daoId: string;
    status: 'ACTIVE' | 'INACTIVE';
    actorAddress?: string | undefined;
  },
) {
  const dao = await requireDao(svc.db, params.daoId);
  const isAdmin = params.principal.role === 'admin';
  // the DAO's owner or one of its admins, through one of their wallets (docs/governance.md, "Roles")
  let actor: string | null = null;
  if (!isAdmin) {
    ({ address: actor } = await actingAs(svc.db, {
      userId: params.principal.userId,
      dao,
      power: 'settings',
      actorAddress: params.actorAddress,
      refusal: () =>
        forbidden("Only the DAO's owner, its admins or a platform admin can do this", 'NOT_OWNER'),
    }));
    if (dao.status === 'PENDING')
      throw conflict('The DAO is awaiting an admin approval', 'DAO_PENDING_APPROVAL');
    if (dao.rejectionReason !== null && params.status === 'ACTIVE')
      throw conflict('An admin rejected this DAO: only an admin can activate it', 'DAO_PENDING_APPROVAL');
  }
  if (dao.status !== params.status) {
    const now = svc.clock.now();
    await svc.db.transaction(async (tx) => {
      // conditional on the status read above: of two changes at once, each records what it changed
      const updated = await tx
        .update(daos)
        .set({
          status: params.status,
          // an ACTIVE DAO carries no rejection
          ...(params.status === 'ACTIVE' ? { rejectionReason: null } : {}),
          updatedAt: now,
        })
        .where(and(eq(daos.id, dao.id), eq(daos.status, dao.status)))
        .returning({ id: daos.id });
      if (!updated.length) return;
      await recordDaoChange(tx, {
        daoId: dao.id,
        actorAddress: actor,
        changes: { status: { from: dao.status, to: params.status } },
        at: now,
      });
      // an admin acting on a DAO is an administrative action (docs/users.md, "Administration")
      if (isAdmin)
        await writeAudit(tx, {
          actorId: params.principal.userId,
          action: 'dao.set_status',
          targetType: 'dao',
          targetId: dao.id,
          details: { from: dao.status, to: params.status },
          at: now,
        });
    });
  }
  return getDao(svc, { daoId: dao.id });
}

/**
 * The owner's mail about an admin's decision, in the decision's transaction: to the account holding the
 * owner address (not deleted); an address no account holds gets none.
 */
async function mailOwner(
  svc: Services,
  tx: DbOrTx,
  dao: DaoRow,
  decision: { decision: 'approved' | 'rejected'; reason?: string },
) {
  const [owner] = await tx
    .select({ email: users.email })
    .from(wallets)
    .innerJoin(users, eq(users.id, wallets.userId))
    .where(and(eq(wallets.address, dao.ownerAddress), isNull(users.deletedAt)))
    .limit(1);
  if (!owner) return;
  const mail = daoDecisionEmail({ appUrl: svc.config.appUrl, daoId: dao.id, daoName: dao.name, ...decision });
  await enqueueEmail(tx, { to: owner.email, subject: mail.subject, text: mail.text, html: mail.html });
}

/**
 * An admin's decision on a PENDING DAO (docs/governance.md, "Approval"). The update is conditional on
 * PENDING: of two admins deciding at once, one wins and the other gets 409.
 */
async function decide(svc: Services, params: { actorId: string; daoId: string; reason?: string }) {
  const dao = await requireDao(svc.db, params.daoId);
  const now = svc.clock.now();
  const rejected = params.reason !== undefined;
  const to = rejected ? 'INACTIVE' : 'ACTIVE';
  await svc.db.transaction(async (tx) => {
    const updated = await tx
      .update(daos)
      .set({ status: to, rejectionReason: params.reason ?? null, updatedAt: now })
      .where(and(eq(daos.id, dao.id), eq(daos.status, 'PENDING')))
      .returning();
    if (!updated.length) throw conflict(`The DAO is ${dao.status}, not PENDING`, 'DAO_NOT_PENDING');
    const changes: Changes = { status: { from: 'PENDING', to } };
    if (rejected) changes.rejectionReason = { from: null, to: params.reason };
    await recordDaoChange(tx, { daoId: dao.id, actorAddress: null, changes, at: now });
    await writeAudit(tx, {
      actorId: params.actorId,
      action: rejected ? 'dao.reject' : 'dao.approve',
      targetType: 'dao',
      targetId: dao.id,
      ...(rejected ? { reason: params.reason } : {}),
      at: now,
    });
    await mailOwner(svc, tx, updated[0]!, {
      decision: rejected ? 'rejected' : 'approved',
      ...(rejected ? { reason: params.reason! } : {}),
    });
  });
  return getDao(svc, { daoId: dao.id });
}

/** POST /admin/daos/{daoId}/approve: PENDING → ACTIVE (409 from any other status) */
export function approveDao(svc: Services, params: { actorId: string; daoId: string }) {
  return decide(svc, params);
}

/** POST /admin/daos/{daoId}/reject: PENDING → INACTIVE with the reason (409 from any other status) */
export function rejectDao(svc: Services, params: { actorId: string; daoId: string; reason: string }) {
  return decide(svc, params);
}
