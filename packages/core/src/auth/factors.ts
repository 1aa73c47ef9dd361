import { type DbOrTx, mfaChallenges, passkeys, recoveryCodes, totpFactors } from '@plenum/db';
import { and, eq, gte, isNotNull, isNull, or } from 'drizzle-orm';

/**
 * Whether the account has a confirmed second factor (docs/accounts.md, "Two-factor sign-in"): what
 * sign-in and the admins' rule ask: a confirmed TOTP app or a passkey (docs/accounts.md, "Passkeys"). The
 * one place that knows which tables hold factors (and second-factor.ts's challenge statement, which
 * asks the same in SQL).
 */
export async function hasSecondFactor(db: DbOrTx, userId: string): Promise<boolean> {
  const [[totp], [passkey]] = await Promise.all([
    db
      .select({ userId: totpFactors.userId })
      .from(totpFactors)
      .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt)))
      .limit(1),
    db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1),
  ]);
  return !!totp || !!passkey;
}

/**
 * Removes the passkeys added and a second factor set up at or after `since` (or still waiting for its confirmation), with its
 * recovery codes and waiting sign-ins: undoing an email change must not leave the owner locked out by a
 * factor whoever changed the address added (docs/accounts.md, "Changing the email address").
 */
export async function removeFactorsSetUpSince(tx: DbOrTx, params: { userId: string; since: Date }) {
  await tx
    .delete(passkeys)
    .where(and(eq(passkeys.userId, params.userId), gte(passkeys.createdAt, params.since)));
  const removed = await tx
    .delete(totpFactors)
    .where(
      and(
        eq(totpFactors.userId, params.userId),
        or(isNull(totpFactors.confirmedAt), gte(totpFactors.confirmedAt, params.since)),
      ),
    )
    .returning({ confirmedAt: totpFactors.confirmedAt });
  if (!removed.some((f) => f.confirmedAt)) return;
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, params.userId));
  await tx.delete(mfaChallenges).where(eq(mfaChallenges.userId, params.userId));
}
