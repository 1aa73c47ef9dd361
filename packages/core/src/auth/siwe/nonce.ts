import { randomInt } from 'node:crypto';
import { type DbOrTx, siweNonces } from '@plenum/db';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Services } from '../../services';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const NONCE_TTL_MS = 10 * 60_000;

/** EIP-4361 nonce: at least 8 alphanumeric characters; we use 17 (~100 bits). */
export async function issueNonce(svc: Pick<Services, 'db' | 'clock'>) {
  let nonce = '';
  for (let i = 0; i < 17; i++) nonce += ALPHABET[randomInt(ALPHABET.length)];
  const now = svc.clock.now();
  await svc.db
    .insert(siweNonces)
    .values({ nonce, expiresAt: new Date(now.getTime() + NONCE_TTL_MS), createdAt: now });
  // housekeeping: forget nonces that expired long ago
  await svc.db.delete(siweNonces).where(lt(siweNonces.expiresAt, new Date(now.getTime() - NONCE_TTL_MS)));
  return { nonce, expiresAt: new Date(now.getTime() + NONCE_TTL_MS).toISOString() };
}

/** Atomically marks the nonce used; false when unknown, expired or already used (a replay). */
export async function consumeNonce(db: DbOrTx, nonce: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(siweNonces)
    .set({ usedAt: now })
    .where(and(eq(siweNonces.nonce, nonce), isNull(siweNonces.usedAt), gt(siweNonces.expiresAt, now)))
    .returning({ nonce: siweNonces.nonce });
  return rows.length === 1;
}
