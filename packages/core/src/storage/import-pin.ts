import { pins } from '@plenum/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { CID } from 'multiformats/cid';
import type { PrivacyHold } from './block-privacy';
import { insertPin, lockCid } from './pin-records';
import { type Reservation, reserveStorage } from './quota';
import type { StorageServices } from './runtime';
import {
  privacyChanged,
  resolveVisibility,
  type VisibilityChoice,
  type VisibilityRequest,
} from './visibility';

/** a root an import pins for the owner, with its pin record's fields */
export interface ImportedRoot {
  cid: CID;
  filename: string | null;
  mimetype: string | null;
  /** what the record shows as the size */
  size: number;
  /** what it counts against the owner's quota (docs/storage.md, "Quotas") */
  storedBytes: number;
}

export interface ImportAndPinParams {
  userId: string;
  owner: string;
  /** the bytes the roots' records will count, reserved before the import */
  bytes: number;
  /**
   * who may read it (docs/storage.md, "Private and members-only files"); a function when the request
   * carries the choice after the content (multipart fields after the file parts)
   */
  visibility?: VisibilityRequest | (() => Promise<VisibilityRequest>) | undefined;
}

/**
 * The one order every write that stores content follows (a file, a folder, a CAR's roots), content already
 * received and checked: a GC lease (docs/storage.md, "Garbage collection"), the visibility checked, the
 * quota reserved under the user's lock ("Quotas": 413 QUOTA_EXCEEDED before anything reaches the node),
 * a privacy hold for a non-public import ("Not given to other peers"), then `run` imports under the hold,
 * then the roots are pinned and recorded in one transaction that turns the reservation into their
 * `stored_bytes`. A failure anywhere releases the reservation: nothing is counted or recorded.
 */
export async function importAndPin<T>(
  svc: StorageServices,
  params: ImportAndPinParams,
  run: (hold: PrivacyHold | undefined) => Promise<{ roots: ImportedRoot[]; result: T }>,
): Promise<T> {
  // add and pin are one step for GC: the lease keeps every block the import writes or finds until the pin holds it
  const lease = svc.storage.node.protect?.();
  let reservation: Reservation | undefined;
  let hold: PrivacyHold | undefined;
  try {
    const requested =
      typeof params.visibility === 'function' ? await params.visibility() : (params.visibility ?? {});
    const choice = {
      ...(await resolveVisibility(svc.db, { userId: params.userId, ...requested })),
      explicit: requested.visibility !== undefined,
    };
    // the exact check, under the user's quota lock: of concurrent writes only those that fit together pass
    reservation = await reserveStorage(svc, { userId: params.userId, bytes: params.bytes });
    // a non-public import's blocks are refused to peers from the moment they are stored
    if (choice.visibility !== 'public') hold = svc.storage.node.privacy?.hold();
    const { roots, result } = await run(hold);
    await recordPins(svc, { ...params, roots, choice, hold, reservation });
    return result;
  } finally {
    // the lease and the hold first: neither may outlive a reservation release that fails
    hold?.release();
    lease?.release();
    await reservation?.release();
  }
}

/**
 * The roots' pin records, in one transaction under the user's quota lock (taken first by `confirm`, as
 * every writer does) and then each CID's lock, in CID order (the node pins it), with the visibility.
 */
async function recordPins(
  svc: StorageServices,
  params: {
    userId: string;
    owner: string;
    roots: ImportedRoot[];
    choice: VisibilityChoice & { explicit: boolean };
    hold: PrivacyHold | undefined;
    reservation: Reservation;
  },
) {
  const { choice, hold } = params;
  const roots = params.roots
    .map((r) => ({ ...r, text: r.cid.toV1().toString() }))
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  const now = svc.clock.now();
  await svc.db.transaction(async (tx) => {
    const existing = await tx
      .select({ storedBytes: pins.storedBytes })
      .from(pins)
      .where(
        and(
          inArray(
            pins.cid,
            roots.map((r) => r.text),
          ),
          eq(pins.owner, params.owner),
        ),
      );
    const replacedBytes = existing.reduce((n, r) => n + Number(r.storedBytes ?? 0), 0);
    await params.reservation.confirm(tx, { replacedBytes });
    for (const root of roots) {
      await lockCid(tx, root.text);
      await svc.storage.node.pin(root.cid, {
        signal: AbortSignal.timeout(svc.config.storage.timeoutMs),
        hold,
      });
      const meta = {
        filename: root.filename,
        mimetype: root.mimetype,
        size: root.size,
        storedBytes: root.storedBytes,
      };
      const visibility = { visibility: choice.visibility, daoId: choice.daoId };
      const { row, created } = await insertPin(
        tx,
        {
          cid: root.text,
          owner: params.owner,
          userId: params.userId,
          status: 'pinned',
          ...meta,
          ...visibility,
        },
        now,
      );
      if (!created) {
        // the owner stores it again: a visibility asked for now applies, none keeps the one it has
        await tx
          .update(pins)
          .set({
            ...meta,
            ...(choice.explicit ? visibility : {}),
            status: 'pinned',
            failureReason: null,
            updatedAt: now,
          })
          .where(eq(pins.id, row.id));
      }
    }
  });
  // the guard walks a non-public DAG before the hold on its blocks is released
  const guarded = Promise.all(roots.map((r) => privacyChanged(svc, r.text)));
  if (hold) await guarded;
  for (const root of roots) {
    svc.storage.events.emit('ipfs:write', {
      owner: { walletId: params.owner, userId: params.userId },
      content: root.text,
    });
    svc.storage.imported.add(root.text);
    svc.storage.events.emit('ipfs:pin', { cid: root.text, owner: params.owner });
  }
}
