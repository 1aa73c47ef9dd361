import { type DbOrTx, daoMembers, daos, proposals } from '@plenum/db';
import { and, count, eq, inArray } from 'drizzle-orm';
import { notFound } from '../shared/errors';

export type DaoRow = typeof daos.$inferSelect;
export type ProposalRow = typeof proposals.$inferSelect;

/** the statuses a proposal ends in: nothing about it changes after, and its record is fixed then */
export const CLOSED_STATUSES = ['PASSED', 'REJECTED', 'CANCELLED'] as const;
export const isClosedStatus = (status: string) => (CLOSED_STATUSES as readonly string[]).includes(status);

export async function requireDao(db: DbOrTx, daoId: string): Promise<DaoRow> {
  const [dao] = await db.select().from(daos).where(eq(daos.id, daoId)).limit(1);
  if (!dao) throw notFound('DAO not found');
  return dao;
}

export async function requireProposal(db: DbOrTx, proposalId: string): Promise<ProposalRow> {
  const [p] = await db.select().from(proposals).where(eq(proposals.id, proposalId)).limit(1);
  if (!p) throw notFound('Proposal not found');
  return p;
}

export async function isMember(db: DbOrTx, daoId: string, address: string): Promise<boolean> {
  const [row] = await db
    .select({ address: daoMembers.address })
    .from(daoMembers)
    .where(and(eq(daoMembers.daoId, daoId), eq(daoMembers.address, address)))
    .limit(1);
  return Boolean(row);
}

/** member and proposal counts of several DAOs in two grouped queries */
export async function countsOf(db: DbOrTx, daoIds: string[]) {
  const result = new Map<string, { memberCount: number; proposalCount: number }>();
  for (const id of daoIds) result.set(id, { memberCount: 0, proposalCount: 0 });
  if (!daoIds.length) return result;
  const [members, props] = await Promise.all([
    // kept by triggers on dao_members (docs/architecture.md, "Lists at scale")
    db.select({ daoId: daos.id, n: daos.memberCount }).from(daos).where(inArray(daos.id, daoIds)),
    db
      .select({ daoId: proposals.daoId, n: count() })
      .from(proposals)
      .where(inArray(proposals.daoId, daoIds))
      .groupBy(proposals.daoId),
  ]);
  for (const m of members) result.get(m.daoId)!.memberCount = Number(m.n);
  for (const p of props) result.get(p.daoId)!.proposalCount = Number(p.n);
  return result;
}
