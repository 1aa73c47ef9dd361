import { randomInt } from 'node:crypto';
import { type DbOrTx, recoveryCodes } from '@plenum/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { Services } from '../../services';
import { keyedHash } from '../../shared/secret-box';

/**
 * Recovery codes (docs/accounts.md, "Two-factor sign-in"): ten per account, each 10 characters of a
 * 31-character alphabet without look-alikes (49 bits), shown as `xxxxx-xxxxx`, single use, stored as keyed
 * hashes. Typed back, case, spaces and dashes do not matter.
 */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'; // 31 letters and digits; no i, l, o, 0, 1
const PURPOSE = 'recovery-code';

export function newRecoveryCodes(): string[] {
  const one = () => Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(one());
  return [...codes].map((c) => `${c.slice(0, 5)}-${c.slice(5)}`);
}

const normalise = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

export const hashRecoveryCode = (secretKey: Uint8Array, code: string) =>
  keyedHash(secretKey, PURPOSE, normalise(code));

/** the stored hash a typed recovery code would have, or null when it cannot be one (not 10 characters) */
export const recoveryCodeHashOf = (secretKey: Uint8Array, code: string): string | null =>
  normalise(code).length === 10 ? hashRecoveryCode(secretKey, code) : null;

/** spends one unused recovery code of the account, atomically: a code works once, however often sent */
export async function spendRecoveryCode(
  svc: Pick<Services, 'config' | 'clock'>,
  tx: DbOrTx,
  userId: string,
  code: string,
): Promise<boolean> {
  const normalised = normalise(code);
  if (normalised.length !== 10) return false;
  const spent = await tx
    .update(recoveryCodes)
    .set({ usedAt: svc.clock.now() })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, hashRecoveryCode(svc.config.secretKey(), normalised)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return spent.length === 1;
}
