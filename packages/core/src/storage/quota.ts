import { type DbOrTx, pins, storageQuotas, storageReservations } from '@plenum/db';
import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Services } from '../services';
import { AppError } from '../shared/errors';

/**
 * Storage quotas (docs/storage.md, "Quotas"): what a user owns is the sum of their pins' `stored_bytes`
 * (a CID pinned by two owners counts for both), plus the reservations of their uploads in flight.
 * Every check that lets usage grow runs under the user's quota lock (`lockUserStorage`), so concurrent
 * uploads and pins of one user are counted one after the other and never pass the limit together.
 *
 * The seam for other writers (CAR and multi-file uploads, the files page): `remainingBytes` for an early
 * refusal, `reserveStorage` before the node import, `Reservation.confirm` in the transaction that records
 * the pin, `Reservation.release` when the upload fails; `assertCanPin` before a new pin by CID;
 * `storageUsage` for what to show.
 */

type QuotaServices = Pick<Services, 'db' | 'config' | 'clock'>;

export interface StorageUsage {
  /** bytes of the user's pins (uploads: file size; pins by CID: DAG size once verified) */
  usedBytes: number;
  /** the user's limit; null = unlimited */
  limitBytes: number | null;
  /** pins in `pinned` */
  pins: number;
  /** pins in `pinning` (pins by CID still being fetched) */
  pendingPins: number;
}

/**
 * How long a reservation holds its bytes: longer than any import of MAX_FILE_SIZE from the spool; a
 * confirm after it expired checks the quota again, so an expired reservation never lets usage pass.
 */
const RESERVATION_TTL_MS = 15 * 60_000;

/** Serializes everything that lets one user's usage grow, across transactions and instances. */
export async function lockUserStorage(tx: DbOrTx, userId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`plenum:quota:${userId}`}))`);
}

/** The user's limit in bytes, 0 = unlimited: their own (set by an admin) or STORAGE_QUOTA_BYTES. */
export async function quotaLimitOf(svc: Pick<Services, 'db' | 'config'>, db: DbOrTx, userId: string) {
  const [own] = await db
    .select({ limit: storageQuotas.limitBytes })
    .from(storageQuotas)
    .where(eq(storageQuotas.userId, userId))
    .limit(1);
  return own ? own.limit : svc.config.storage.quotaBytes;
}

async function pinTotals(db: DbOrTx, userId: string, exceptPinId?: string) {
  const [r] = await db
    .select({
      used: sql<string>`coalesce(sum(${pins.storedBytes}), 0)`,
      pinned: sql<number>`count(*) filter (where ${pins.status} = 'pinned')::int`,
      pending: sql<number>`count(*) filter (where ${pins.status} = 'pinning')::int`,
    })
    .from(pins)
    .where(exceptPinId ? and(eq(pins.userId, userId), ne(pins.id, exceptPinId)) : eq(pins.userId, userId));
  return { used: Number(r?.used ?? 0), pinned: Number(r?.pinned ?? 0), pending: Number(r?.pending ?? 0) };
}

async function reservedBytes(db: DbOrTx, userId: string, now: Date, exceptId?: string) {
  const conds = [eq(storageReservations.userId, userId), gt(storageReservations.expiresAt, now)];
  if (exceptId) conds.push(ne(storageReservations.id, exceptId));
  const [r] = await db
    .select({ n: sql<string>`coalesce(sum(${storageReservations.bytes}), 0)` })
    .from(storageReservations)
    .where(and(...conds));
  return Number(r?.n ?? 0);
}

/** GET /ipfs/usage and the admin's view of a user. */
export async function storageUsage(
  svc: Pick<Services, 'db' | 'config'>,
  params: { userId: string },
): Promise<StorageUsage> {
  const [limit, totals] = await Promise.all([
    quotaLimitOf(svc, svc.db, params.userId),
    pinTotals(svc.db, params.userId),
  ]);
  return {
    usedBytes: totals.used,
    limitBytes: limit === 0 ? null : limit,
    pins: totals.pinned,
    pendingPins: totals.pending,
  };
}

/** 413 (uploads) or 409 (pins) QUOTA_EXCEEDED with the caller's usage and limit in the body */
export function quotaExceeded(
  status: 'PAYLOAD_TOO_LARGE' | 'CONFLICT',
  usedBytes: number,
  limitBytes: number,
) {
  return new AppError(
    status,
    `Your storage quota is used up: ${usedBytes} of ${limitBytes} bytes (unpin files to make room)`,
    { reason: 'QUOTA_EXCEEDED', fields: { usedBytes, limitBytes } },
  );
}

/**
 * What the user may still store now (pins and uploads in flight counted), Infinity when unlimited; no
 * lock: for refusing early (a declared Content-Length, the byte counter while the body streams). The exact
 * check is `reserveStorage`.
 */
export async function remainingBytes(svc: QuotaServices, params: { userId: string }) {
  const limit = await quotaLimitOf(svc, svc.db, params.userId);
  if (limit === 0) return { remaining: Number.POSITIVE_INFINITY, used: 0, limit: 0 };
  const [{ used }, reserved] = await Promise.all([
    pinTotals(svc.db, params.userId),
    reservedBytes(svc.db, params.userId, svc.clock.now()),
  ]);
  return { remaining: Math.max(0, limit - used - reserved), used: used + reserved, limit };
}

export interface Reservation {
  readonly id: string | null;
  readonly userId: string;
  readonly bytes: number;
  /**
   * In the transaction that records the pin, before any CID lock (it takes the user's quota lock, and
   * every writer takes that one first): drops the reservation and checks once more that the pin fits,
   * counting `replacedBytes` (what an existing record of the same pin counted) as freed. 413
   * QUOTA_EXCEEDED if not (possible only when the reservation expired meanwhile).
   */
  confirm(tx: DbOrTx, options?: { replacedBytes?: number }): Promise<void>;
  /** drops the reservation (a refused or failed upload); safe to call after confirm */
  release(): Promise<void>;
}

/**
 * Holds `bytes` of the user's quota for an upload about to enter the node: written under the user's
 * quota lock, so of concurrent uploads only those that fit together get one; the others are refused
 * 413 QUOTA_EXCEEDED before anything is stored.
 */
export async function reserveStorage(
  svc: QuotaServices,
  params: { userId: string; bytes: number },
): Promise<Reservation> {
  const { userId, bytes } = params;
  const now = svc.clock.now();
  const id = await svc.db.transaction(async (tx) => {
    await lockUserStorage(tx, userId);
    const limit = await quotaLimitOf(svc, tx, userId);
    if (limit === 0) return null;
    // what crashed processes left behind
    await tx
      .delete(storageReservations)
      .where(and(eq(storageReservations.userId, userId), lt(storageReservations.expiresAt, now)));
    const { used } = await pinTotals(tx, userId);
    const reserved = await reservedBytes(tx, userId, now);
    if (used + reserved + bytes > limit) throw quotaExceeded('PAYLOAD_TOO_LARGE', used + reserved, limit);
    const [row] = await tx
      .insert(storageReservations)
      .values({ userId, bytes, expiresAt: new Date(now.getTime() + RESERVATION_TTL_MS) })
      .returning({ id: storageReservations.id });
    return row!.id;
  });
  return {
    id,
    userId,
    bytes,
    async confirm(tx, options = {}) {
      await lockUserStorage(tx, userId);
      if (id) await tx.delete(storageReservations).where(eq(storageReservations.id, id));
      const limit = await quotaLimitOf(svc, tx, userId);
      if (limit === 0) return;
      const { used } = await pinTotals(tx, userId);
      const reserved = await reservedBytes(tx, userId, svc.clock.now());
      const after = used - (options.replacedBytes ?? 0) + reserved + bytes;
      if (after > limit) throw quotaExceeded('PAYLOAD_TOO_LARGE', used + reserved, limit);
    },
    async release() {
      if (id) await svc.db.delete(storageReservations).where(eq(storageReservations.id, id));
    },
  };
}

/**
 * Before a new pin by CID (or a failed one retried), under the user's quota lock in the transaction that
 * records it: 409 QUOTA_EXCEEDED when the user is at or over the limit, 409 TOO_MANY_PENDING_PINS when
 * STORAGE_MAX_PENDING_PINS of their pins are still `pinning`. `replacing`: a pin this one replaces (the
 * Pinning Service API's replace) is not counted.
 */
export async function assertCanPin(
  svc: QuotaServices,
  tx: DbOrTx,
  params: { userId: string; replacing?: string },
) {
  const { userId } = params;
  await lockUserStorage(tx, userId);
  // one query after the other: a transaction is one connection
  const limit = await quotaLimitOf(svc, tx, userId);
  const totals = await pinTotals(tx, userId, params.replacing);
  const reserved = await reservedBytes(tx, userId, svc.clock.now());
  if (limit !== 0 && totals.used + reserved >= limit)
    throw quotaExceeded('CONFLICT', totals.used + reserved, limit);
  const maxPending = svc.config.storage.maxPendingPins;
  if (maxPending !== 0 && totals.pending >= maxPending)
    throw new AppError(
      'CONFLICT',
      `${totals.pending} of your pins are still being fetched (at most ${maxPending}); wait for some to finish`,
      {
        reason: 'TOO_MANY_PENDING_PINS',
        fields: { pendingPins: totals.pending, maxPendingPins: maxPending },
      },
    );
}

/**
 * A verified pin by CID is about to count `bytes` (its DAG's size): under the user's quota lock, whether it
 * fits beside everything else the user owns. False: the pin must end `failed` with QUOTA_EXCEEDED.
 */
export async function verifiedPinFits(
  svc: QuotaServices,
  tx: DbOrTx,
  params: { userId: string; pinId: string; bytes: number },
) {
  await lockUserStorage(tx, params.userId);
  const limit = await quotaLimitOf(svc, tx, params.userId);
  if (limit === 0) return true;
  const { used } = await pinTotals(tx, params.userId, params.pinId);
  const reserved = await reservedBytes(tx, params.userId, svc.clock.now());
  return used + reserved + params.bytes <= limit;
}

/** PUT /admin/users/{id}/storage-quota: null = back to STORAGE_QUOTA_BYTES, 0 = unlimited. */
export async function writeQuotaOf(
  tx: DbOrTx,
  params: { userId: string; limitBytes: number | null; at: Date },
) {
  if (params.limitBytes === null) {
    await tx.delete(storageQuotas).where(eq(storageQuotas.userId, params.userId));
    return;
  }
  await tx
    .insert(storageQuotas)
    .values({ userId: params.userId, limitBytes: params.limitBytes, updatedAt: params.at })
    .onConflictDoUpdate({
      target: storageQuotas.userId,
      set: { limitBytes: params.limitBytes, updatedAt: params.at },
    });
}
