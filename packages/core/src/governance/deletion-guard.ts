import { type DbOrTx, daos, wallets } from '@plenum/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { FieldIssue } from '../shared/errors';

/**
 * Blocks deleting a user who owns, through any of their wallets, an ACTIVE DAO (docs/users.md, "Deleting an
 * account").
 */
export async function ownsActiveDaoGuard(
  db: DbOrTx,
  userId: string,
): Promise<Required<Pick<FieldIssue, 'message' | 'code' | 'params'>> | null> {
  const mine = db.select({ address: wallets.address }).from(wallets).where(eq(wallets.userId, userId));
  const [dao] = await db
    .select({ name: daos.name })
    .from(daos)
    .where(and(eq(daos.status, 'ACTIVE'), inArray(daos.ownerAddress, mine)))
    .limit(1);
  return dao
    ? { message: `owns an ACTIVE DAO: ${dao.name}`, code: 'owns_active_dao', params: { name: dao.name } }
    : null;
}
