import { type DaoRole, type DbOrTx, daoRoles, wallets } from '@plenum/db';
import { and, eq, inArray } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import { forbidden } from '../shared/errors';
import type { DaoRow } from './rows';

/**
 * Who may do what in one DAO (docs/governance.md, "Roles"). The owner address is an implicit admin that
 * also alone transfers ownership; an admin does everything else the owner does; a moderator cancels any
 * proposal; an author creates proposals where only authors may. Every DAO write resolves its actor here,
 * so the rules exist once.
 */
export type Authority = 'owner' | DaoRole;

/** what a DAO write needs */
export type Power = 'settings' | 'members' | 'roles' | 'transfer' | 'cancel' | 'author' | 'moderate';

const GRANTS: Record<Authority, readonly Power[]> = {
  owner: ['settings', 'members', 'roles', 'transfer', 'cancel', 'author', 'moderate'],
  admin: ['settings', 'members', 'roles', 'cancel', 'author', 'moderate'],
  moderator: ['cancel', 'moderate'],
  author: ['author'],
};
const RANK: Record<Authority, number> = { owner: 4, admin: 3, moderator: 2, author: 1 };

export const can = (authority: Authority | null, power: Power) =>
  authority !== null && GRANTS[authority].includes(power);

/** the strongest of several authorities (null when none) */
export const strongest = (list: (Authority | null)[]): Authority | null =>
  list.reduce<Authority | null>((best, a) => (a && (!best || RANK[a] > RANK[best]) ? a : best), null);

/** the authority of each address in a DAO: owner, its role, or null */
export async function authoritiesOf(
  db: DbOrTx,
  dao: Pick<DaoRow, 'id' | 'ownerAddress'>,
  addresses: string[],
): Promise<Map<string, Authority | null>> {
  const out = new Map<string, Authority | null>(addresses.map((a) => [a, null]));
  if (!addresses.length) return out;
  const rows = await db
    .select({ address: daoRoles.address, role: daoRoles.role })
    .from(daoRoles)
    .where(and(eq(daoRoles.daoId, dao.id), inArray(daoRoles.address, addresses)));
  for (const r of rows) out.set(r.address, r.role);
  if (out.has(dao.ownerAddress)) out.set(dao.ownerAddress, 'owner');
  return out;
}

export async function authorityOf(
  db: DbOrTx,
  dao: Pick<DaoRow, 'id' | 'ownerAddress'>,
  address: string,
): Promise<Authority | null> {
  return (await authoritiesOf(db, dao, [address])).get(address) ?? null;
}

const REFUSALS: Record<Power, string> = {
  settings: "Only this DAO's owner or an admin can change its settings",
  members: "Only this DAO's owner or an admin can change its members",
  roles: "Only this DAO's owner or an admin can change its roles",
  transfer: "Only this DAO's owner can transfer its ownership",
  cancel: "Only the proposal's author, or this DAO's owner, admins and moderators, can cancel it",
  author: "Only this DAO's owner, admins and authors can do this",
  moderate: "Only this DAO's owner, admins and moderators can hide or unhide comments",
};

/**
 * The wallet a signed-in caller acts through in a DAO, and its authority. `actorAddress`, when given, must
 * be one of the caller's wallets (403 NOT_YOUR_ADDRESS); otherwise the caller's wallet with the strongest
 * authority in the DAO acts. 403 NOT_DAO_ADMIN when that wallet lacks `power` (`refuse: false`: returned
 * anyway, for a caller who may also act as something else, such as a proposal's author).
 */
export async function actingAs(
  db: DbOrTx,
  params: {
    userId: string;
    dao: Pick<DaoRow, 'id' | 'ownerAddress'>;
    power: Power;
    actorAddress?: string | undefined;
    refuse?: boolean;
    /** the refusal when no wallet of the caller has `power` (default 403 NOT_DAO_ADMIN, by power) */
    refusal?: () => Error;
  },
): Promise<{ address: string; authority: Authority | null; mine: string[] }> {
  const mine = (
    await db.select({ address: wallets.address }).from(wallets).where(eq(wallets.userId, params.userId))
  ).map((w) => w.address);
  let candidates = mine;
  if (params.actorAddress !== undefined) {
    const actor = canonicalAddress(params.actorAddress, 'actorAddress');
    if (!mine.includes(actor))
      throw forbidden(`${actor} is not a wallet of the signed-in user`, 'NOT_YOUR_ADDRESS');
    candidates = [actor];
  }
  if (!candidates.length)
    throw (
      params.refusal?.() ??
      forbidden('Link a wallet to your account first: DAO roles belong to addresses', 'WALLET_REQUIRED')
    );
  const found = await authoritiesOf(db, params.dao, candidates);
  // the strongest wallet that has the power, else the strongest at all (for the refusal, or the caller)
  const ranked = candidates
    .map((address) => ({ address, authority: found.get(address) ?? null }))
    .sort((a, b) => (b.authority ? RANK[b.authority] : 0) - (a.authority ? RANK[a.authority] : 0));
  const pick = ranked.find((c) => can(c.authority, params.power)) ?? ranked[0]!;
  if (params.refuse !== false && !can(pick.authority, params.power))
    throw params.refusal?.() ?? forbidden(REFUSALS[params.power], 'NOT_DAO_ADMIN');
  return { ...pick, mine };
}
