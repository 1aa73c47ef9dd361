import { type DbOrTx, totpFactors } from '@plenum/db';
import { and, eq, isNotNull } from 'drizzle-orm';

/**
 * Whether the account has a confirmed second factor (docs/accounts.md, "Two-factor sign-in"): what
 * sign-in and the admins' rule ask. The one place that knows which tables hold factors.
 */
export async function hasSecondFactor(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: totpFactors.userId })
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)))
    .limit(1);
  return !!row;
}
