import { type PinStatus, type PinVisibility, pins } from '@plenum/db';
import { and, eq, inArray, or } from 'drizzle-orm';
import { walletAddressesOf } from '../auth/wallets';
import { forbidden, notFound } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { parseCid } from './cid';
import { collectGarbageIfFull } from './collect-garbage';
import { ownerWalletOf } from './owner';
import { countPinsOfCid, insertPin, lockCid, type NewPin, type PinRow, pinsOfCid } from './pin-records';
import { failureOf, ProviderError } from './provider';
import { assertCanPin } from './quota';
import type { StorageServices } from './runtime';
import { privacyChanged, resolveVisibility, type VisibilityRequest } from './visibility';

export interface PinView {
  id: string;
  cid: string;
  owner: string;
  /** Unix seconds (docs/storage.md, "Pins") */
  timestamp: number;
  status: PinStatus;
  verifiedAt: string | null;
  failureReason: string | null;
  name: string | null;
  metadata: { filename?: string; mimetype?: string; size?: number };
  /** the Pinning Service API `meta` given with the pin */
  meta: Record<string, string> | null;
  visibility: PinVisibility;
  daoId: string | null;
  createdAt: string;
}

export function pinView(r: PinRow): PinView {
  const metadata: PinView['metadata'] = {};
  if (r.filename != null) metadata.filename = r.filename;
  if (r.mimetype != null) metadata.mimetype = r.mimetype;
  if (r.size != null) metadata.size = r.size;
  return {
    id: r.id,
    cid: r.cid,
    owner: r.owner,
    timestamp: Math.floor(r.createdAt.getTime() / 1000),
    status: r.status,
    verifiedAt: r.verifiedAt?.toISOString() ?? null,
    failureReason: r.failureReason,
    name: r.name,
    metadata,
    meta: r.meta ?? null,
    visibility: r.visibility,
    daoId: r.daoId,
    createdAt: r.createdAt.toISOString(),
  };
}

export interface PinRequest extends VisibilityRequest {
  cid: string;
  name?: string | null | undefined;
  meta?: Record<string, string> | null | undefined;
  origins?: string[] | null | undefined;
}

/**
 * Records the caller's pin at once (status pinning) and lets the node fetch and pin in the background
 * (the `ipfs:pin` listener). Idempotent per owner; asking again for a failed pin retries it. A new or
 * retried pin must fit the caller's quota and pending-pins limit (409; docs/storage.md, "Quotas").
 */
export async function pinForCaller(svc: StorageServices, params: { userId: string } & PinRequest) {
  const { text: cid } = parseCid(params.cid);
  const owner = await ownerWalletOf(svc, { userId: params.userId });
  const choice = await resolveVisibility(svc.db, params);
  const now = svc.clock.now();
  const values: NewPin = { cid, owner, userId: params.userId, status: 'pinning', ...choice };
  if (params.name !== undefined) values.name = params.name;
  if (params.meta !== undefined) values.meta = params.meta;
  if (params.origins !== undefined) values.origins = params.origins;
  const { row, created, queued } = await svc.db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ status: pins.status })
      .from(pins)
      .where(and(eq(pins.cid, cid), eq(pins.owner, owner)))
      .limit(1);
    // a pin that already counts (pinned or pending) only changes its name, meta or origins
    if (!existing || existing.status === 'failed') await assertCanPin(svc, tx, { userId: params.userId });
    let { row, created } = await insertPin(tx, values, now);
    let queued = created;
    if (!created) {
      const changes: Partial<PinRow> = {};
      if (params.name !== undefined) changes.name = params.name;
      if (params.meta !== undefined) changes.meta = params.meta;
      if (params.origins !== undefined) changes.origins = params.origins;
      // asking again with a visibility changes it; without one the pin keeps its own
      if (params.visibility !== undefined) Object.assign(changes, choice);
      if (row.status === 'failed') Object.assign(changes, { status: 'pinning', failureReason: null });
      if (Object.keys(changes).length) {
        [row] = (await tx
          .update(pins)
          .set({ ...changes, updatedAt: now })
          .where(eq(pins.id, row.id))
          .returning()) as [PinRow];
        queued = changes.status === 'pinning';
      }
    }
    return { row, created, queued };
  });
  await privacyChanged(svc, cid);
  if (queued) svc.storage.events.emit('ipfs:pin', { cid, owner });
  return { pin: row, created };
}

/**
 * Removes pin records chosen by `which` under the CID's lock; when no owner is left the node unpins.
 * If the node cannot unpin, nothing changes (the transaction rolls back) and the caller sees 502/504.
 */
export async function removePins(
  svc: StorageServices,
  params: { cid: string; which: (rows: PinRow[]) => PinRow[] },
) {
  const { cid, which } = params;
  let hidden = false;
  const removed = await svc.db
    .transaction(async (tx) => {
      await lockCid(tx, cid);
      const rows = await pinsOfCid(tx, cid);
      const mine = which(rows);
      if (!mine.length) return [];
      // the last records of a file nobody may read publicly: its blocks must leave the node
      hidden = mine.length === rows.length && rows.every((r) => r.visibility !== 'public');
      await tx.delete(pins).where(
        inArray(
          pins.id,
          mine.map((r) => r.id),
        ),
      );
      if ((await countPinsOfCid(tx, cid)) === 0) {
        await svc.storage.node.unpin(parseCid(cid).cid, {
          signal: AbortSignal.timeout(svc.config.storage.timeoutMs),
        });
      }
      return mine;
    })
    .catch((err: unknown) => {
      if (err instanceof ProviderError) throw failureOf([err.kind], 'the unpin');
      throw err;
    });
  if (removed.length) void privacyChanged(svc, cid);
  for (const r of removed) svc.storage.events.emit('ipfs:unpin', { cid, owner: r.owner });
  if (removed.length) collectGarbageIfFull(svc, { hidden });
  return removed;
}

/** DELETE /ipfs/unpin/{cid}: the caller's pins (any of their wallets); 403 for others' pins, 404 for none. */
export async function unpinForCaller(svc: StorageServices, params: { userId: string; cid: string }) {
  const { text: cid } = parseCid(params.cid);
  const wallets = new Set(await walletAddressesOf(svc.db, params.userId));
  let othersPin = false;
  const removed = await removePins(svc, {
    cid,
    which: (rows) => {
      othersPin = rows.length > 0;
      return rows.filter((r) => wallets.has(r.owner) || r.userId === params.userId);
    },
  });
  if (!removed.length) {
    if (othersPin) throw forbidden('Only an owner of this pin can unpin it', 'NOT_PIN_OWNER');
    throw notFound(`Nobody pins ${cid}`);
  }
  const remaining = await countPinsOfCid(svc.db, cid);
  return { cid, owners: removed.map((r) => r.owner), unpinnedFromNode: remaining === 0 };
}

/** the node drops a CID nobody owns any more */
export async function unpinIfOrphan(svc: StorageServices, params: { cid: string }) {
  const { cid } = params;
  await svc.db.transaction(async (tx) => {
    await lockCid(tx, cid);
    if ((await countPinsOfCid(tx, cid)) === 0)
      await svc.storage.node.unpin(parseCid(cid).cid, {
        signal: AbortSignal.timeout(svc.config.storage.timeoutMs),
      });
  });
}

export async function pinOfUser(
  svc: StorageServices,
  params: { userId: string; id: string },
): Promise<PinRow> {
  const { userId, id } = params;
  if (!isUuid(id)) throw notFound('No such pin request');
  const [row] = await svc.db
    .select()
    .from(pins)
    .where(and(eq(pins.id, id), eq(pins.userId, userId)))
    .limit(1);
  if (!row) throw notFound('No such pin request');
  return row;
}

/**
 * PATCH /ipfs/pin/{cid}: the caller's pins on that CID (any of their wallets) get a new visibility; 404
 * when the caller pins nothing there. Links stay as they are: each still needs its maker's right to read.
 */
export async function setPinVisibility(
  svc: StorageServices,
  params: VisibilityRequest & { userId: string; cid: string },
) {
  const { text: cid } = parseCid(params.cid);
  const choice = await resolveVisibility(svc.db, params);
  const wallets = await walletAddressesOf(svc.db, params.userId);
  const mine = or(eq(pins.userId, params.userId), wallets.length ? inArray(pins.owner, wallets) : undefined);
  const rows = await svc.db.transaction(async (tx) => {
    await lockCid(tx, cid);
    return tx
      .update(pins)
      .set({ ...choice, updatedAt: svc.clock.now() })
      .where(and(eq(pins.cid, cid), mine))
      .returning();
  });
  if (!rows.length) throw notFound(`You pin nothing at ${cid}`);
  await privacyChanged(svc, cid);
  return rows.map(pinView);
}
