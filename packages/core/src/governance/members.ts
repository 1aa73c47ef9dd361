import { daoMembers, daos, isUniqueViolation } from '@plenum/db';
import { and, desc, eq, getTableColumns } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import type { Services } from '../services';
import { afterKey, cursorTime, decodeCursor, encodeCursor, type KeyPart } from '../shared/cursor';
import { badRequest, conflict, notFound } from '../shared/errors';
import { type CursorPage, fetchCursorPage } from '../shared/pagination';
import { actingAs } from './dao-authority';
import { type DaoRow, requireDao } from './rows';

/** Membership: the owner or a DAO admin (acting through one of their wallets) changes it (dao-authority.ts). */

type MemberRow = typeof daoMembers.$inferSelect;
const memberView = (m: MemberRow) => ({
  memberAddress: m.address,
  tokenBalance: m.tokenBalance,
  addedAt: m.addedAt.toISOString(),
});

async function ownedDao(
  svc: Services,
  userId: string,
  daoId: string,
  actorAddress?: string | undefined,
): Promise<DaoRow> {
  const dao = await requireDao(svc.db, daoId);
  await actingAs(svc.db, { userId, dao, power: 'members', actorAddress });
  return dao;
}

/** kept by triggers on dao_members (docs/architecture.md, "Lists at scale"): never a count of a million rows */
async function memberCount(svc: Services, daoId: string) {
  const [row] = await svc.db.select({ n: daos.memberCount }).from(daos).where(eq(daos.id, daoId));
  return row?.n ?? 0;
}

async function membership(svc: Services, m: MemberRow) {
  return { daoId: m.daoId, ...memberView(m), memberCount: await memberCount(svc, m.daoId) };
}

/** POST /daos/{daoId}/members: 409 when already a member or when the DAO is not ACTIVE */
export async function addMember(
  svc: Services,
  params: { userId: string; daoId: string; memberAddress: string; actorAddress?: string | undefined },
) {
  const address = canonicalAddress(params.memberAddress, 'memberAddress');
  const dao = await ownedDao(svc, params.userId, params.daoId, params.actorAddress);
  if (dao.status !== 'ACTIVE')
    throw conflict(`The DAO is ${dao.status}: it takes no new members`, 'DAO_NOT_ACTIVE');
  try {
    const [row] = await svc.db
      .insert(daoMembers)
      .values({ daoId: dao.id, address, tokenBalance: '0', addedAt: svc.clock.now() })
      .returning();
    return membership(svc, row!);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`${address} is already a member`, 'ALREADY_MEMBER');
    throw err;
  }
}

/** DELETE /daos/{daoId}/members/{memberAddress}: the owner stays (400) */
export async function removeMember(
  svc: Services,
  params: { userId: string; daoId: string; memberAddress: string; actorAddress?: string | undefined },
) {
  const address = canonicalAddress(params.memberAddress, 'memberAddress');
  const dao = await ownedDao(svc, params.userId, params.daoId, params.actorAddress);
  if (address === dao.ownerAddress)
    throw badRequest('The owner cannot be removed from the DAO', undefined, 'OWNER_IS_MEMBER');
  const removed = await svc.db
    .delete(daoMembers)
    .where(and(eq(daoMembers.daoId, dao.id), eq(daoMembers.address, address)))
    .returning();
  if (!removed.length) throw notFound(`${address} is not a member`);
}

/** PUT /daos/{daoId}/members/{memberAddress}: token balance, token-weighted DAOs only */
export async function setTokenBalance(
  svc: Services,
  params: {
    userId: string;
    daoId: string;
    memberAddress: string;
    tokenBalance: string;
    actorAddress?: string | undefined;
  },
) {
  const address = canonicalAddress(params.memberAddress, 'memberAddress');
  const dao = await ownedDao(svc, params.userId, params.daoId, params.actorAddress);
  if (!dao.tokenWeighted) {
    throw badRequest(
      'This DAO votes with equal weights: members have no token balance',
      [{ path: 'tokenBalance', message: 'only token-weighted DAOs keep balances' }],
      'NOT_TOKEN_WEIGHTED',
    );
  }
  if (dao.tokenChainId !== null)
    throw conflict(
      "This DAO's weights are read from its token on the chain at each proposal's snapshot block",
      'BALANCES_FROM_CHAIN',
    );
  const [row] = await svc.db
    .update(daoMembers)
    .set({ tokenBalance: params.tokenBalance })
    .where(and(eq(daoMembers.daoId, dao.id), eq(daoMembers.address, address)))
    .returning();
  if (!row) throw notFound(`${address} is not a member`);
  return membership(svc, row);
}

const MEMBER_KEY: KeyPart[] = ['time', 'text'];

/**
 * GET /daos/{daoId}/members: newest first, with balances; by `page` or after a cursor (the index
 * dao_members_dao_added_idx serves both the order and the cursor's start: docs/architecture.md, "Lists at scale")
 */
export async function listMembers(svc: Services, params: CursorPage & { daoId: string }) {
  const dao = await requireDao(svc.db, params.daoId);
  const list = `members:${params.daoId}`;
  const after =
    params.after === undefined
      ? undefined
      : afterKey(
          [daoMembers.addedAt, daoMembers.address],
          decodeCursor(list, params.after, MEMBER_KEY),
          MEMBER_KEY,
          'desc',
        );
  const { rows, pagination } = await fetchCursorPage(
    params,
    svc.db
      .select({ ...getTableColumns(daoMembers), cursorAt: cursorTime(daoMembers.addedAt) })
      .from(daoMembers)
      .where(and(eq(daoMembers.daoId, params.daoId), after))
      .orderBy(desc(daoMembers.addedAt), desc(daoMembers.address))
      .$dynamic(),
    dao.memberCount,
    (m) => encodeCursor(list, [m.cursorAt, m.address]),
  );
  return { items: rows.map(memberView), pagination };
}

/**
 * POST /daos/{daoId}/members/bulk (docs/governance.md, "Members in bulk"): each pasted string is checked
 * on its own (a bad one or a repeat is reported, not fatal); the rest go in with ONE statement, so none
 * is half-added, and `on conflict do nothing returning` tells exactly which this call added even while
 * other calls add overlapping lists.
 */
export async function bulkAddMembers(
  svc: Services,
  params: { userId: string; daoId: string; addresses: string[]; actorAddress?: string | undefined },
) {
  const dao = await ownedDao(svc, params.userId, params.daoId, params.actorAddress);
  if (dao.status !== 'ACTIVE')
    throw conflict(`The DAO is ${dao.status}: it takes no new members`, 'DAO_NOT_ACTIVE');
  const valid: string[] = [];
  const invalid: { address: string; reason: 'INVALID_ADDRESS' | 'DUPLICATE' }[] = [];
  const seen = new Set<string>();
  for (const raw of params.addresses) {
    let address: string;
    try {
      address = canonicalAddress(raw);
    } catch {
      invalid.push({ address: raw, reason: 'INVALID_ADDRESS' });
      continue;
    }
    if (seen.has(address)) invalid.push({ address: raw, reason: 'DUPLICATE' });
    else {
      seen.add(address);
      valid.push(address);
    }
  }
  const now = svc.clock.now();
  // rows in address order: two bulk adds with overlapping lists then take their row locks in one order
  // and one waits for the other, where lists in their pasted order could wait for each other (a deadlock)
  const ordered = [...valid].sort();
  const inserted = ordered.length
    ? await svc.db
        .insert(daoMembers)
        .values(ordered.map((address) => ({ daoId: dao.id, address, tokenBalance: '0', addedAt: now })))
        .onConflictDoNothing()
        .returning({ address: daoMembers.address })
    : [];
  const added = new Set(inserted.map((r) => r.address));
  return {
    added: valid.filter((a) => added.has(a)),
    alreadyMembers: valid.filter((a) => !added.has(a)),
    invalid,
    memberCount: await memberCount(svc, dao.id),
  };
}
