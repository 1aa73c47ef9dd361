import { type PinStatus, pins } from '@plenum/db';
import { and, desc, eq, gt, ilike, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { parseCid } from './cid';
import { insertPin, lockCid, type PinRow } from './pin-records';
import { type PinRequest, pinOfUser, unpinIfOrphan } from './pins';
import { assertCanPin } from './quota';
import type { StorageServices } from './runtime';
import { privacyChanged, resolveVisibility } from './visibility';

/** IPFS Pinning Service API v1.0.0 over the same pin records as /ipfs/pin. */
export type PsaStatus = 'queued' | 'pinning' | 'pinned' | 'failed';
export type TextMatch = 'exact' | 'iexact' | 'partial' | 'ipartial';

export interface PinListQuery {
  cid?: string[] | undefined;
  name?: string | undefined;
  match?: TextMatch | undefined;
  status?: PsaStatus[] | undefined;
  before?: Date | undefined;
  after?: Date | undefined;
  limit: number;
  meta?: Record<string, string> | undefined;
}

export function pinStatusView(r: PinRow, delegates: string[]) {
  const pin: { cid: string; name?: string; origins?: string[]; meta?: Record<string, string> } = {
    cid: r.cid,
  };
  if (r.name != null) pin.name = r.name;
  if (r.origins?.length) pin.origins = r.origins;
  if (r.meta && Object.keys(r.meta).length) pin.meta = r.meta;
  const info: Record<string, string> = {};
  if (r.failureReason) info.status_details = r.failureReason;
  if (r.verifiedAt) info.verified_at = r.verifiedAt.toISOString();
  return {
    requestid: r.id,
    status: r.status as PsaStatus,
    created: r.createdAt.toISOString(),
    pin,
    delegates,
    info,
  };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** GET /pins: the caller's pins, newest first, `count` = all matches (not just this page) */
export async function listPinRequests(svc: StorageServices, params: PinListQuery & { userId: string }) {
  const { userId, ...q } = params;
  const where: SQL[] = [eq(pins.userId, userId)];
  if (q.cid?.length)
    where.push(
      inArray(
        pins.cid,
        q.cid.map((c) => parseCid(c).text),
      ),
    );
  if (q.name !== undefined) {
    const match = q.match ?? 'exact';
    if (match === 'exact') where.push(eq(pins.name, q.name));
    else if (match === 'iexact') where.push(sql`lower(${pins.name}) = lower(${q.name})`);
    else if (match === 'partial') where.push(sql`${pins.name} like ${`%${escapeLike(q.name)}%`}`);
    else where.push(ilike(pins.name, `%${escapeLike(q.name)}%`));
  }
  const statuses = new Set<PinStatus>(
    (q.status ?? ['pinned']).map((s) => (s === 'queued' ? 'pinning' : s)) as PinStatus[],
  );
  where.push(inArray(pins.status, [...statuses]));
  if (q.before) where.push(lt(pins.createdAt, q.before));
  if (q.after) where.push(gt(pins.createdAt, q.after));
  if (q.meta && Object.keys(q.meta).length) where.push(sql`${pins.meta} @> ${JSON.stringify(q.meta)}::jsonb`);
  const cond = and(...where);
  const [rows, [total]] = await Promise.all([
    svc.db.select().from(pins).where(cond).orderBy(desc(pins.createdAt)).limit(q.limit),
    svc.db.select({ n: sql<number>`count(*)::int` }).from(pins).where(cond),
  ]);
  return { count: Number(total?.n ?? 0), rows };
}

/**
 * POST /pins/{requestid}: the old request is removed and a new one (new requestid) made for the new
 * pin object, under both CIDs' locks; the node drops the old CID when nobody else pins it.
 */
export async function replacePinRequest(
  svc: StorageServices,
  params: { userId: string; id: string; pin: PinRequest },
) {
  const { userId, id, pin } = params;
  const old = await pinOfUser(svc, { userId, id });
  const { text: cid } = parseCid(pin.cid);
  // the new pin object's meta.visibility, else the old request's
  const choice =
    pin.visibility !== undefined
      ? await resolveVisibility(svc.db, { userId, visibility: pin.visibility, daoId: pin.daoId })
      : { visibility: old.visibility, daoId: old.daoId };
  const now = svc.clock.now();
  const row = await svc.db.transaction(async (tx) => {
    // the new pin starts pending: it must fit the quota and the pending-pins limit as a new pin does
    // (the quota lock first, then the CIDs': the order every writer takes them in)
    await assertCanPin(svc, tx, { userId, replacing: old.id });
    for (const c of [...new Set([old.cid, cid])].sort()) await lockCid(tx, c);
    const deleted = await tx
      .delete(pins)
      .where(and(eq(pins.id, old.id), eq(pins.userId, userId)))
      .returning();
    if (!deleted.length) return null;
    const values = {
      cid,
      owner: old.owner,
      userId,
      status: 'pinning' as const,
      name: pin.name ?? null,
      meta: pin.meta ?? null,
      origins: pin.origins ?? null,
      ...choice,
    };
    const { row: inserted, created } = await insertPin(tx, values, now);
    if (created) return inserted;
    const [updated] = await tx
      .update(pins)
      .set({ name: values.name, meta: values.meta, origins: values.origins, ...choice, updatedAt: now })
      .where(eq(pins.id, inserted.id))
      .returning();
    return updated ?? inserted;
  });
  if (!row) return null;
  await privacyChanged(svc, cid);
  if (old.cid !== cid) {
    void privacyChanged(svc, old.cid);
    await unpinIfOrphan(svc, { cid: old.cid }).catch((err: unknown) =>
      svc.log.warn({ err, cid: old.cid }, 'unpinning a replaced CID failed'),
    );
    svc.storage.events.emit('ipfs:unpin', { cid: old.cid, owner: old.owner });
  }
  if (row.status === 'pinning') svc.storage.events.emit('ipfs:pin', { cid, owner: row.owner });
  return row;
}
