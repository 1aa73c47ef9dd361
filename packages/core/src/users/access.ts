import { type DbOrTx, users } from '@plenum/db';
import { and, eq, isNull } from 'drizzle-orm';
import { forbidden, notFound } from '../shared/errors';

/** Who asks: the signed-in principal's id and role. */
export interface Actor {
  userId: string;
  role: 'user' | 'admin';
}

export type UserRow = typeof users.$inferSelect;

const missing = () => notFound('User not found');

/** The user unless missing or soft-deleted (both 404: a deleted account is gone for every reader). */
export async function loadLiveUser(db: DbOrTx, id: string): Promise<UserRow> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .limit(1);
  if (!user) throw missing();
  return user;
}

/** Same, with the row locked for the rest of the transaction (read-modify-write without lost updates). */
export async function lockLiveUser(tx: DbOrTx, id: string): Promise<UserRow> {
  const [user] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .limit(1)
    .for('update');
  if (!user) throw missing();
  return user;
}

export function assertOwner(actor: Actor, userId: string) {
  if (actor.userId !== userId) throw forbidden('Only the owner may change this account', 'NOT_OWNER');
}

export function assertOwnerOrAdmin(actor: Actor, userId: string) {
  if (actor.userId !== userId && actor.role !== 'admin')
    throw forbidden('Only the owner or an admin may do this', 'NOT_OWNER');
}
