import { type DaoRole, type DbOrTx, daoRoles, daos } from '@plenum/db';
import { and, asc, count, eq } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import type { Services } from '../services';
import { conflict, forbidden, notFound } from '../shared/errors';
import { fetchPage, type Page } from '../shared/pagination';
import { type Authority, actingAs } from './dao-authority';
import { recordDaoChange } from './history';
import { type DaoRow, requireDao } from './rows';

/**
 * Roles in one DAO (docs/governance.md, "Roles"): the owner and admins grant and take them; one role per
 * address, a second grant replaces the first. A role needs no membership: it is about running the DAO,
 * membership about voting in it. Each change is a DAO history entry (`roles.<address>`) and a
 * `dao_updated` event, written with it.
 */

type RoleRow = typeof daoRoles.$inferSelect;
const roleView = (r: RoleRow) => ({
  address: r.address,
  role: r.role,
  grantedBy: r.grantedBy,
  grantedAt: r.grantedAt.toISOString(),
});

interface RoleChange {
  userId: string;
  daoId: string;
  address: string;
  actorAddress?: string | undefined;
}

/**
 * Runs one role change with the DAO row locked (so concurrent changes apply one after the other, each seeing
 * the last) after the checks every change shares: the acting wallet may change roles, the owner's role is
 * not one to change (409 OWNER_ROLE), and only the owner touches another admin's role.
 */
async function changingRole<T>(
  svc: Services,
  params: RoleChange,
  change: (
    tx: DbOrTx,
    ctx: {
      dao: DaoRow;
      actor: { address: string; authority: Authority | null };
      address: string;
      held: RoleRow | null;
    },
  ) => Promise<T>,
): Promise<T> {
  const address = canonicalAddress(params.address, 'address');
  const before = await requireDao(svc.db, params.daoId);
  await actingAs(svc.db, {
    userId: params.userId,
    dao: before,
    power: 'roles',
    actorAddress: params.actorAddress,
  });
  return svc.db.transaction(async (tx) => {
    // NO KEY UPDATE: serializes role and settings changes, not the votes and proposals that reference the row
    const [dao] = await tx.select().from(daos).where(eq(daos.id, params.daoId)).for('no key update');
    if (!dao) throw notFound('DAO not found');
    const actor = await actingAs(tx, {
      userId: params.userId,
      dao,
      power: 'roles',
      actorAddress: params.actorAddress,
    });
    if (address === dao.ownerAddress)
      throw conflict('The owner is an implicit admin: its role cannot be set or removed', 'OWNER_ROLE');
    const [held] = await tx
      .select()
      .from(daoRoles)
      .where(and(eq(daoRoles.daoId, dao.id), eq(daoRoles.address, address)));
    if (held?.role === 'admin' && address !== actor.address && actor.authority !== 'owner')
      throw forbidden("Only this DAO's owner can change or remove another admin's role", 'NOT_DAO_ADMIN');
    return change(tx, { dao, actor, address, held: held ?? null });
  });
}

async function recorded(
  tx: DbOrTx,
  p: {
    daoId: string;
    actorAddress: string;
    address: string;
    from: DaoRole | null;
    to: DaoRole | null;
    at: Date;
  },
) {
  const changes = { [`roles.${p.address}`]: { from: p.from, to: p.to } };
  await recordDaoChange(tx, { daoId: p.daoId, actorAddress: p.actorAddress, changes, at: p.at });
}

/** PUT /daos/{daoId}/roles/{address}: 200 with the role; the same role again changes nothing */
export async function setRole(svc: Services, params: RoleChange & { role: DaoRole }) {
  return changingRole(svc, params, async (tx, { dao, actor, address, held }) => {
    if (held?.role === params.role) return roleView(held);
    const now = svc.clock.now();
    const [row] = await tx
      .insert(daoRoles)
      .values({ daoId: dao.id, address, role: params.role, grantedBy: actor.address, grantedAt: now })
      .onConflictDoUpdate({
        target: [daoRoles.daoId, daoRoles.address],
        set: { role: params.role, grantedBy: actor.address, grantedAt: now },
      })
      .returning();
    await recorded(tx, {
      daoId: dao.id,
      actorAddress: actor.address,
      address,
      from: held?.role ?? null,
      to: params.role,
      at: now,
    });
    return roleView(row!);
  });
}

/** DELETE /daos/{daoId}/roles/{address}: 404 when the address holds no role */
export async function removeRole(svc: Services, params: RoleChange) {
  await changingRole(svc, params, async (tx, { dao, actor, address, held }) => {
    if (!held) throw notFound(`${address} holds no role in this DAO`);
    await tx.delete(daoRoles).where(and(eq(daoRoles.daoId, dao.id), eq(daoRoles.address, address)));
    await recorded(tx, {
      daoId: dao.id,
      actorAddress: actor.address,
      address,
      from: held.role,
      to: null,
      at: svc.clock.now(),
    });
  });
}

/** GET /daos/{daoId}/roles: every role, in the order granted */
export async function listRoles(svc: Services, params: Page & { daoId: string }) {
  await requireDao(svc.db, params.daoId);
  const where = eq(daoRoles.daoId, params.daoId);
  const { rows, pagination } = await fetchPage(
    params,
    svc.db
      .select()
      .from(daoRoles)
      .where(where)
      .orderBy(asc(daoRoles.grantedAt), asc(daoRoles.address))
      .$dynamic(),
    svc.db.select({ n: count() }).from(daoRoles).where(where),
  );
  return { items: rows.map(roleView), pagination };
}
