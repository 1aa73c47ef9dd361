import { type DaoRole, type DbOrTx, daoRoles, daos } from '@plenum/db';
import { asc, eq, or } from 'drizzle-orm';

/** a DAO an address runs, and how: its owner, the owner-to-be of a pending transfer, or a role */
export interface DaoRunBy {
  daoId: string;
  name: string;
  as: 'owner' | 'pendingOwner' | DaoRole;
}

/**
 * The DAOs an address runs, of any status (docs/accounts.md, "Unlinking a wallet"): owned first, then
 * pending transfers to it, then roles, each by name, a DAO once; at most `limit`, and whether there are
 * more. Membership, votes and delegations are not running a DAO and are not listed.
 */
export async function daosRunBy(
  db: DbOrTx,
  address: string,
  limit = 5,
): Promise<{ items: DaoRunBy[]; more: boolean }> {
  const [owned, roles] = await Promise.all([
    db
      .select({ daoId: daos.id, name: daos.name, owner: daos.ownerAddress })
      .from(daos)
      .where(or(eq(daos.ownerAddress, address), eq(daos.pendingOwnerAddress, address)))
      .orderBy(asc(daos.name), asc(daos.id))
      .limit(limit + 1),
    db
      .select({ daoId: daoRoles.daoId, name: daos.name, role: daoRoles.role })
      .from(daoRoles)
      .innerJoin(daos, eq(daos.id, daoRoles.daoId))
      .where(eq(daoRoles.address, address))
      .orderBy(asc(daos.name), asc(daos.id))
      .limit(limit + 1),
  ]);
  const all: DaoRunBy[] = [
    ...owned
      .filter((d) => d.owner === address)
      .map((d) => ({ daoId: d.daoId, name: d.name, as: 'owner' as const })),
    ...owned
      .filter((d) => d.owner !== address)
      .map((d) => ({ daoId: d.daoId, name: d.name, as: 'pendingOwner' as const })),
    ...roles.map((d) => ({ daoId: d.daoId, name: d.name, as: d.role })),
  ];
  const seen = new Set<string>();
  const unique = all.filter((d) => !seen.has(d.daoId) && seen.add(d.daoId));
  return { items: unique.slice(0, limit), more: unique.length > limit };
}
