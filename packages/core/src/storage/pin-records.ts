import { type DbOrTx, isUniqueViolation, type PinStatus, type PinVisibility, pins } from '@plenum/db';
import { and, eq, ne, sql } from 'drizzle-orm';

export type PinRow = typeof pins.$inferSelect;

export interface NewPin {
  cid: string;
  owner: string;
  userId: string;
  status: PinStatus;
  name?: string | null | undefined;
  filename?: string | null | undefined;
  mimetype?: string | null | undefined;
  size?: number | null | undefined;
  storedBytes?: number | null | undefined;
  meta?: Record<string, string> | null | undefined;
  origins?: string[] | null | undefined;
  visibility?: PinVisibility | undefined;
  daoId?: string | null | undefined;
}

/** Serializes every change of one CID's pins (and the node's pin) across transactions and instances. */
export async function lockCid(tx: DbOrTx, cid: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`plenum:pin:${cid}`}))`);
}

/**
 * Inserts the (cid, owner) pin unless it exists. `created` times are unique per user (the newest
 * existing + 1 ms at least), so the Pinning Service API's before/after pagination never skips or
 * repeats a pin; the unique index settles concurrent inserts, which retry.
 */
export async function insertPin(
  db: DbOrTx,
  p: NewPin,
  now: Date,
): Promise<{ row: PinRow; created: boolean }> {
  for (let attempt = 0; ; attempt++) {
    try {
      const createdAt = sql`greatest(${now.toISOString()}::timestamptz, (select max(${pins.createdAt}) + interval '1 millisecond' from ${pins} where ${pins.userId} = ${p.userId}))`;
      // in the caller's transaction this is a savepoint: a unique violation must not abort the whole
      // transaction, or the retry fails ("current transaction is aborted") and the upload answers 500
      const [row] = await db.transaction((sp) =>
        sp
          .insert(pins)
          .values({ ...p, createdAt, updatedAt: now })
          .onConflictDoNothing({ target: [pins.cid, pins.owner] })
          .returning(),
      );
      if (row) return { row, created: true };
      const [existing] = await db
        .select()
        .from(pins)
        .where(and(eq(pins.cid, p.cid), eq(pins.owner, p.owner)))
        .limit(1);
      if (existing) return { row: existing, created: false };
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= 8) throw err;
    }
  }
}

export async function pinsOfCid(db: DbOrTx, cid: string): Promise<PinRow[]> {
  return db.select().from(pins).where(eq(pins.cid, cid));
}

export async function countPinsOfCid(db: DbOrTx, cid: string): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(pins).where(eq(pins.cid, cid));
  return Number(r?.n ?? 0);
}

/** records of the CID that hold or wait for the node's pin (not `failed`) */
export async function countLivePinsOfCid(db: DbOrTx, cid: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(pins)
    .where(and(eq(pins.cid, cid), ne(pins.status, 'failed')));
  return Number(r?.n ?? 0);
}
