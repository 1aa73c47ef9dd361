import { pins } from '@plenum/db';
import { ne } from 'drizzle-orm';
import { writeAudit } from '../audit/write-audit';
import { conflict } from '../shared/errors';
import { parseCid } from './cid';
import type { GcReport } from './garbage-collector';
import type { StorageServices } from './runtime';

export type GcTrigger = 'admin' | 'watermark' | 'hidden-unpinned';

export interface GcResult extends GcReport {
  trigger: GcTrigger;
}

/** the CIDs of every pin record not `failed`: belt and braces next to the node's own pins */
async function recordedRoots(svc: StorageServices) {
  const rows = await svc.db.selectDistinct({ cid: pins.cid }).from(pins).where(ne(pins.status, 'failed'));
  return rows.map((r) => parseCid(r.cid).cid);
}

/**
 * One GC run of the embedded node (docs/storage.md, "Garbage collection"): every block that neither a
 * node pin nor a pin record needs, and no upload or pin in flight touched, is removed. An admin's run is
 * audited. On Kubo: 409 GC_NOT_SUPPORTED (Kubo collects its own garbage).
 */
export async function collectGarbage(
  svc: StorageServices,
  params: { trigger: GcTrigger; actorId?: string | null },
): Promise<GcResult> {
  const { node } = svc.storage;
  if (!node.collectGarbage)
    throw conflict(
      'The IPFS node is a Kubo node: Kubo removes unpinned blocks itself (ipfs repo gc, or the daemon with --enable-gc)',
      'GC_NOT_SUPPORTED',
    );
  const collect = node.collectGarbage.bind(node);
  const run = async () => collect({ roots: await recordedRoots(svc), signal: svc.storage.signal });
  const report = { ...(await svc.storage.track(run())), trigger: params.trigger };
  if (params.trigger === 'admin') {
    await writeAudit(svc.db, {
      actorId: params.actorId ?? null,
      action: 'storage.gc',
      targetType: 'storage',
      targetId: node.name,
      details: { blocksRemoved: report.blocksRemoved, bytesFreed: report.bytesFreed },
      at: svc.clock.now(),
    });
  }
  return report;
}

/**
 * After an unpin: a run when the blockstore's usage has reached IPFS_GC_WATERMARK (0 = never), or at
 * once when `hidden`: the last record of a private or members-only file is gone, and its blocks, public
 * by the read rule now that no record holds them, must leave the node (docs/storage.md, "Garbage
 * collection"). Runs one at a time; unpins during a run ask for one more run after it, so what they
 * freed is not left behind until the next unpin.
 */
export function collectGarbageIfFull(svc: StorageServices, options: { hidden?: boolean } = {}): void {
  const watermark = svc.config.storage.gcWatermarkBytes;
  const { node } = svc.storage;
  if (!(watermark || options.hidden) || !node.usedBytes || !node.collectGarbage || svc.storage.signal.aborted)
    return;
  const s = svc.storage.autoGc;
  if (options.hidden) s.hidden = true;
  if (s.running) {
    s.again = true;
    return;
  }
  s.running = true;
  const loop = async () => {
    do {
      s.again = false;
      const hidden = s.hidden;
      s.hidden = false;
      if (!hidden && (!watermark || (await node.usedBytes!()) < watermark)) return;
      const report = await collectGarbage(svc, { trigger: hidden ? 'hidden-unpinned' : 'watermark' });
      svc.log.info({ ...report, watermark }, 'storage: automatic garbage collection');
    } while (s.again && !svc.storage.signal.aborted);
  };
  void svc.storage
    .track(loop())
    .catch((err: unknown) => {
      if (!svc.storage.signal.aborted) svc.log.warn({ err }, 'storage: automatic garbage collection failed');
    })
    .finally(() => {
      s.running = false;
    });
}
