import { type DbOrTx, daoMembers, daoRoles, daos, users, wallets } from '@plenum/db';
import { and, eq, isNull } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import type { Services } from '../services';
import { conflict, forbidden, notFound, unauthorized } from '../shared/errors';
import { actingAs } from './dao-authority';
import { getDao } from './dao-queries';
import { recordDaoChange } from './history';
import type { DaoRow } from './rows';

/**
 * Ownership transfer in two steps (docs/governance.md, "Ownership"): the owner names a new owner address,
 * an account holding that address accepts. Every step locks the DAO row, so a transfer, its replacement,
 * its withdrawal and its acceptance happen one after the other and each sees the one before.
 */

/** the DAO row, locked for the rest of the transaction (404 when there is none) */
async function lockedDao(tx: DbOrTx, daoId: string): Promise<DaoRow> {
  const [dao] = await tx.select().from(daos).where(eq(daos.id, daoId)).for('update');
  if (!dao) throw notFound('DAO not found');
  return dao;
}

/** the DAO row locked, and the caller's wallet that owns it (403 for anyone else) */
async function lockedAsOwner(
  tx: DbOrTx,
  params: { userId: string; daoId: string; actorAddress?: string | undefined },
) {
  const dao = await lockedDao(tx, params.daoId);
  const actor = await actingAs(tx, {
    userId: params.userId,
    dao,
    power: 'transfer',
    actorAddress: params.actorAddress,
  });
  return { dao, actor };
}

/** POST /daos/{daoId}/owner: the owner names the new owner (202); a second call replaces the first */
export async function transferOwnership(
  svc: Services,
  params: { userId: string; daoId: string; newOwnerAddress: string; actorAddress?: string | undefined },
) {
  const newOwner = canonicalAddress(params.newOwnerAddress, 'newOwnerAddress');
  const now = svc.clock.now();
  return svc.db.transaction(async (tx) => {
    const { dao, actor } = await lockedAsOwner(tx, params);
    if (newOwner === dao.ownerAddress) throw conflict(`${newOwner} already owns this DAO`, 'ALREADY_OWNER');
    await tx
      .update(daos)
      .set({ pendingOwnerAddress: newOwner, pendingOwnerSince: now, updatedAt: now })
      .where(eq(daos.id, dao.id));
    await recordDaoChange(tx, {
      daoId: dao.id,
      actorAddress: actor.address,
      changes: { pendingOwner: { from: dao.pendingOwnerAddress, to: newOwner } },
      at: now,
    });
    return {
      daoId: dao.id,
      ownerAddress: dao.ownerAddress,
      pendingOwner: { address: newOwner, requestedAt: now.toISOString() },
    };
  });
}

/** DELETE /daos/{daoId}/owner/pending: the owner withdraws the pending transfer */
export async function withdrawOwnershipTransfer(
  svc: Services,
  params: { userId: string; daoId: string; actorAddress?: string | undefined },
) {
  const now = svc.clock.now();
  await svc.db.transaction(async (tx) => {
    const { dao, actor } = await lockedAsOwner(tx, params);
    if (!dao.pendingOwnerAddress) throw conflict('No ownership transfer is pending', 'NO_PENDING_TRANSFER');
    await tx
      .update(daos)
      .set({ pendingOwnerAddress: null, pendingOwnerSince: null, updatedAt: now })
      .where(eq(daos.id, dao.id));
    await recordDaoChange(tx, {
      daoId: dao.id,
      actorAddress: actor.address,
      changes: { pendingOwner: { from: dao.pendingOwnerAddress, to: null } },
      at: now,
    });
  });
  return getDao(svc, { daoId: params.daoId });
}

/**
 * POST /daos/{daoId}/owner/accept: an account holding the pending address becomes the owner through it.
 * The new owner becomes a member and loses any role (the owner holds none); the old owner keeps an admin
 * role. Withdrawn, replaced by a transfer to an address the caller does not hold, or never made: 409.
 */
export async function acceptOwnership(
  svc: Services,
  params: { userId: string; daoId: string; address?: string | undefined },
) {
  const now = svc.clock.now();
  await svc.db.transaction(async (tx) => {
    // the caller's row, shared-locked (as in createDao): a deletion or suspension either committed
    // first, and is refused here, or waits and then sees the DAO this account now owns
    const [user] = await tx
      .select({ status: users.status })
      .from(users)
      .where(and(eq(users.id, params.userId), isNull(users.deletedAt)))
      .for('share');
    if (!user) throw unauthorized('This account has been deleted', 'ACCOUNT_DELETED');
    if (user.status === 'suspended') throw forbidden('This account is suspended', 'ACCOUNT_SUSPENDED');
    const mine = (
      await tx.select({ address: wallets.address }).from(wallets).where(eq(wallets.userId, params.userId))
    ).map((w) => w.address);
    let candidates = mine;
    if (params.address !== undefined) {
      const address = canonicalAddress(params.address, 'address');
      if (!mine.includes(address))
        throw forbidden(`${address} is not a wallet of the signed-in user`, 'NOT_YOUR_ADDRESS');
      candidates = [address];
    }
    // the new owner's membership first, the DAO row after: the order of every member insert, whose count
    // trigger updates the DAO row at its end. Locking the DAO row first would wait for a member added at
    // this moment while that insert's trigger waits for the DAO row (a deadlock). Should the transfer
    // change in between, the check below refuses and the insert is rolled back with it.
    const [seen] = await tx
      .select({ pending: daos.pendingOwnerAddress })
      .from(daos)
      .where(eq(daos.id, params.daoId));
    if (seen?.pending && candidates.includes(seen.pending))
      await tx
        .insert(daoMembers)
        .values({ daoId: params.daoId, address: seen.pending, tokenBalance: '0', addedAt: now })
        .onConflictDoNothing();
    const dao = await lockedDao(tx, params.daoId);
    const newOwner = dao.pendingOwnerAddress;
    if (!newOwner || !candidates.includes(newOwner) || newOwner !== seen?.pending)
      throw conflict('No ownership transfer to an address of yours is pending', 'NO_PENDING_TRANSFER');
    // conditional on the transfer read above: whatever changed it in between loses nothing, it refuses
    const moved = await tx
      .update(daos)
      .set({ ownerAddress: newOwner, pendingOwnerAddress: null, pendingOwnerSince: null, updatedAt: now })
      .where(
        and(
          eq(daos.id, dao.id),
          eq(daos.ownerAddress, dao.ownerAddress),
          eq(daos.pendingOwnerAddress, newOwner),
        ),
      )
      .returning({ id: daos.id });
    if (!moved.length)
      throw conflict('No ownership transfer to an address of yours is pending', 'NO_PENDING_TRANSFER');
    await tx.delete(daoRoles).where(and(eq(daoRoles.daoId, dao.id), eq(daoRoles.address, newOwner)));
    await tx
      .insert(daoRoles)
      .values({ daoId: dao.id, address: dao.ownerAddress, role: 'admin', grantedBy: null, grantedAt: now })
      .onConflictDoUpdate({
        target: [daoRoles.daoId, daoRoles.address],
        set: { role: 'admin', grantedBy: null, grantedAt: now },
      });
    await recordDaoChange(tx, {
      daoId: dao.id,
      actorAddress: newOwner,
      changes: {
        ownerAddress: { from: dao.ownerAddress, to: newOwner },
        pendingOwner: { from: newOwner, to: null },
      },
      at: now,
    });
  });
  return getDao(svc, { daoId: params.daoId });
}
