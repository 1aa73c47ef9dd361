import { pins } from '@plenum/db';
import { and, eq } from 'drizzle-orm';
import { parseCid } from './cid';
import { countLivePinsOfCid, countPinsOfCid, lockCid } from './pin-records';
import { verifiedPinFits } from './quota';

/** a verified pin by CID whose DAG does not fit its owner's quota ends `failed` with this reason */
export const QUOTA_FAILURE = 'QUOTA_EXCEEDED';

import type { StorageServices } from './runtime';
import { privacyChanged, privacySource } from './visibility';

/**
 * The listener on `ipfs:pin`: the node fetches and pins the CID (within IPFS_TIMEOUT), reads it back,
 * and the pin record shows the outcome: pinned + verifiedAt and `ipfs:pin.verified`, or failed and
 * `ipfs:pin.failed`. Owners pinning the same CID at once share one fetch.
 */
export function startPinVerifier(svc: StorageServices): () => void {
  const inflight = new Map<string, Promise<void>>();
  const { storage } = svc;

  const fetchAndPin = (cid: string, imported: boolean) => {
    let p = inflight.get(cid);
    if (!p) {
      p = (async () => {
        const signal = AbortSignal.any([AbortSignal.timeout(svc.config.storage.timeoutMs), storage.signal]);
        const parsed = parseCid(cid).cid;
        // every owner's origins: the peers they said have the content are dialled first
        const rows = await svc.db.select({ origins: pins.origins }).from(pins).where(eq(pins.cid, cid));
        const origins = [...new Set(rows.flatMap((r) => r.origins ?? []))].slice(0, 20);
        // blocks of a non-public CID are refused to peers from the moment they arrive (docs/storage.md,
        // "Not given to other peers"), and the guard walks the DAG before that hold ends
        const restricted =
          storage.node.privacy && (await privacySource(svc.db).visibilityOf(cid)) === 'restricted';
        const hold = restricted ? storage.node.privacy?.hold() : undefined;
        try {
          await storage.node.pin(parsed, { signal, origins, hold });
          await privacyChanged(svc, cid);
        } finally {
          hold?.release();
        }
        if (imported) {
          // An upload's bytes were written by this node moments ago and its pin walk found every
          // block: reading them all again (100 MB after a 100 MB upload, competing with the next
          // one) proves nothing more, so the pin itself is checked.
          if (!(await storage.node.isPinned(parsed, { signal }))) throw new Error('the node lost the pin');
          return;
        }
        // content from elsewhere is read back in full: "verified" means the node serves every byte
        try {
          const source = await storage.node.open(parsed, { signal });
          for await (const _ of source.chunks) signal.throwIfAborted();
        } catch (err) {
          if (!notAFile(err)) throw err;
          // a folder (or another DAG): the pin itself walked and fetched every block; check that it holds
          if (!(await storage.node.isPinned(parsed, { signal }))) throw new Error('the node lost the pin');
        }
      })().finally(() => inflight.delete(cid));
      inflight.set(cid, p);
    }
    return p;
  };

  async function verify(cid: string, owner: string) {
    let error: string | null = null;
    const imported = storage.imported.delete(cid);
    // the record as it was queued: an upload's already counts its bytes, a pin by CID counts its DAG's
    const [record] = await svc.db
      .select({ id: pins.id, userId: pins.userId, storedBytes: pins.storedBytes })
      .from(pins)
      .where(and(eq(pins.cid, cid), eq(pins.owner, owner)))
      .limit(1);
    let size: number | null = null;
    try {
      await fetchAndPin(cid, imported);
      if (record && record.storedBytes === null)
        size = await storage.node.dagSize(parseCid(cid).cid, {
          signal: AbortSignal.any([AbortSignal.timeout(svc.config.storage.timeoutMs), storage.signal]),
        });
    } catch (err) {
      error = storage.signal.aborted
        ? 'the server stopped before the pin completed'
        : (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError'
          ? `not found within ${svc.config.storage.timeoutMs} ms`
          : (err as Error).message || String(err);
    }
    if (error && storage.signal.aborted) return; // stays `pinning`; picked up again at the next start
    const now = svc.clock.now();
    const stillOwned = await svc.db.transaction(async (tx) => {
      // the quota lock before the CID's, as every writer takes them (docs/storage.md, "Quotas")
      if (!error && record && size !== null) {
        const fits = await verifiedPinFits(svc, tx, { userId: record.userId, pinId: record.id, bytes: size });
        if (!fits) error = QUOTA_FAILURE;
      }
      await lockCid(tx, cid);
      const updated = await tx
        .update(pins)
        .set(
          error
            ? { status: 'failed', failureReason: error.slice(0, 500), storedBytes: null, updatedAt: now }
            : {
                status: 'pinned',
                verifiedAt: now,
                failureReason: null,
                ...(size !== null ? { storedBytes: size } : {}),
                updatedAt: now,
              },
        )
        .where(and(eq(pins.cid, cid), eq(pins.owner, owner)))
        .returning({ id: pins.id });
      if (error === QUOTA_FAILURE) {
        // fetched but refused: the node keeps the CID only for owners whose pin still stands or is pending
        if ((await countLivePinsOfCid(tx, cid)) === 0) await storage.node.unpin(parseCid(cid).cid);
      } else if (!error && (await countPinsOfCid(tx, cid)) === 0) {
        // unpinned while we were fetching: undo our node pin if nobody else wants it
        await storage.node.unpin(parseCid(cid).cid);
      }
      return updated.length > 0;
    });
    if (!stillOwned) return;
    if (error) {
      storage.events.emit('ipfs:pin.failed', { cid, owner, error, timestamp: now.getTime() });
      return;
    }
    storage.events.emit('ipfs:pin.verified', { cid, owner, verified: true, timestamp: now.getTime() });
    if (svc.config.storage.pinBroadcast) {
      void storage
        .track(
          storage.node.announce(parseCid(cid).cid, {
            signal: AbortSignal.timeout(svc.config.storage.timeoutMs),
          }),
        )
        .catch((err: unknown) => svc.log.warn({ err, cid }, 'announcing a pinned CID failed'));
    }
  }

  return storage.events.on('ipfs:pin', ({ cid, owner }) => {
    storage
      .track(verify(cid, owner))
      .catch((err: unknown) => svc.log.error({ err, cid }, 'pin verification failed unexpectedly'));
  });
}

/** Pins left `pinning` by a stopped server are queued again at start. */
export async function requeuePendingPins(svc: StorageServices) {
  const rows = await svc.db
    .select({ cid: pins.cid, owner: pins.owner })
    .from(pins)
    .where(eq(pins.status, 'pinning'))
    .limit(10_000);
  for (const r of rows) svc.storage.events.emit('ipfs:pin', r);
  return rows.length;
}

/** the node's answer when a CID is no file to read (docs/storage.md, "Folders and several files") */
function notAFile(err: unknown): boolean {
  const e = err as Error;
  return (
    e.name === 'NotAFileError' ||
    e.name === 'NotUnixFSError' ||
    /is a directory|not a file/i.test(e.message ?? '')
  );
}
