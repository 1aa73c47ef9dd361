import { daos } from '@plenum/db';
import { and, eq } from 'drizzle-orm';
import { writeAudit } from '../audit/write-audit';
import type { Principal } from '../auth/sessions';
import { walletAddressesOf } from '../auth/wallets';
import type { Services } from '../services';
import { conflict, forbidden } from '../shared/errors';
import { getDao } from './dao-queries';
import { recordChange } from './history';
import { requireDao } from './rows';

/**
 * POST /daos/{daoId}/status: the owner (through one of their wallets) or an admin switches ACTIVE ↔
 * INACTIVE. A PENDING DAO leaves the queue only through an admin (approval or this call).
 */
export async function setDaoStatus(
  svc: Services,
  params: { principal: Principal; daoId: string; status: 'ACTIVE' | 'INACTIVE' },
) {
  const dao = await requireDao(svc.db, params.daoId);
  const isAdmin = params.principal.role === 'admin';
  if (!isAdmin) {
    const mine = await walletAddressesOf(svc.db, params.principal.userId);
    if (!mine.includes(dao.ownerAddress))
      throw forbidden('Only the DAO owner or an admin can do this', 'NOT_OWNER');
    if (dao.status === 'PENDING')
      throw conflict('The DAO is awaiting an admin approval', 'DAO_PENDING_APPROVAL');
  }
  if (dao.status !== params.status) {
    const now = svc.clock.now();
    await svc.db.transaction(async (tx) => {
      // conditional: of two switches at once only the one that changes the status records a change
      const switched = await tx
        .update(daos)
        .set({ status: params.status, updatedAt: now })
        .where(and(eq(daos.id, dao.id), eq(daos.status, dao.status)))
        .returning({ id: daos.id });
      if (!switched.length) return;
      // docs/governance.md, "History": a platform admin acts as an account, with no address
      await recordChange(tx, {
        daoId: dao.id,
        actorAddress: isAdmin ? null : dao.ownerAddress,
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

/** POST /admin/daos/{daoId}/approve: PENDING → ACTIVE (409 from any other status) */
export async function approveDao(svc: Services, params: { actorId: string; daoId: string }) {
  const dao = await requireDao(svc.db, params.daoId);
  const now = svc.clock.now();
  await svc.db.transaction(async (tx) => {
    // conditional update: two admins approving at once, one wins and the other gets 409
    const updated = await tx
      .update(daos)
      .set({ status: 'ACTIVE', updatedAt: now })
      .where(and(eq(daos.id, dao.id), eq(daos.status, 'PENDING')))
      .returning({ status: daos.status });
    if (!updated.length) throw conflict(`The DAO is ${dao.status}, not PENDING`, 'DAO_NOT_PENDING');
    await recordChange(tx, {
      daoId: dao.id,
      actorAddress: null,
      changes: { status: { from: 'PENDING', to: 'ACTIVE' } },
      at: now,
    });
    await writeAudit(tx, {
      actorId: params.actorId,
      action: 'dao.approve',
      targetType: 'dao',
      targetId: dao.id,
      at: now,
    });
  });
  return getDao(svc, { daoId: dao.id });
}
