import { daoMembers, isUniqueViolation } from '@plenum/db';
import { and, count, desc, eq } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import { assertOwnsAddress } from '../auth/wallets';
import type { Services } from '../services';
import { badRequest, conflict, notFound } from '../shared/errors';
import { fetchPage, type Page } from '../shared/pagination';
import { type DaoRow, requireDao } from './rows';

/** Membership: only the owner (acting through one of their wallets) changes it. */

type MemberRow = typeof daoMembers.$inferSelect;
const memberView = (m: MemberRow) => ({
  memberAddress: m.address,
  tokenBalance: m.tokenBalance,
  addedAt: m.addedAt.toISOString(),
});

async function ownedDao(svc: Services, userId: string, daoId: string): Promise<DaoRow> {
  const dao = await requireDao(svc.db, daoId);
  await assertOwnsAddress(svc.db, userId, dao.ownerAddress);
  return dao;
}

async function memberCount(svc: Services, daoId: string) {
  const [row] = await svc.db.select({ n: count() }).from(daoMembers).where(eq(daoMembers.daoId, daoId));
  return Number(row?.n ?? 0);
}

async function membership(svc: Services, m: MemberRow) {
  return { daoId: m.daoId, ...memberView(m), memberCount: await memberCount(svc, m.daoId) };
}

/** POST /daos/{daoId}/members: 409 when already a member or when the DAO is not ACTIVE */
export async function addMember(
  svc: Services,
  params: { userId: string; daoId: string; memberAddress: string },
) {
  const address = canonicalAddress(params.memberAddress, 'memberAddress');
  const dao = await ownedDao(svc, params.userId, params.daoId);
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
  params: { userId: string; daoId: string; memberAddress: string },
) {
  const address = canonicalAddress(params.memberAddress, 'memberAddress');
  const dao = await ownedDao(svc, params.userId, params.daoId);
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
  params: { userId: string; daoId: string; memberAddress: string; tokenBalance: string },
) {
  const address = canonicalAddress(params.memberAddress, 'memberAddress');
  const dao = await ownedDao(svc, params.userId, params.daoId);
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

/** GET /daos/{daoId}/members: newest first, with balances */
export async function listMembers(svc: Services, params: Page & { daoId: string }) {
  await requireDao(svc.db, params.daoId);
  const { rows, pagination } = await fetchPage(
    params,
    svc.db
      .select()
      .from(daoMembers)
      .where(eq(daoMembers.daoId, params.daoId))
      .orderBy(desc(daoMembers.addedAt), desc(daoMembers.address))
      .$dynamic(),
    memberCount(svc, params.daoId),
  );
  return { items: rows.map(memberView), pagination };
}
