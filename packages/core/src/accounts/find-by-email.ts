import { type DbOrTx, users } from '@plenum/db';
import { eq } from 'drizzle-orm';

/** Emails are compared trimmed and ignoring case. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The user with this email (soft-deleted ones included: their email stays taken), or null. */
export async function findUserByEmail(db: DbOrTx, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .limit(1);
  return user ?? null;
}
