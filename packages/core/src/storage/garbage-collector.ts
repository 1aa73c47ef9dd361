import { lstat, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { FsBlockstore } from 'blockstore-fs';
import { createUnsafe } from 'multiformats/block';
import type { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { type BlockGuard, blockKey } from './block-guard';

/** blockstore-fs's file extension (its default NextToLast layout, as embedded-node.ts creates it) */
const BLOCK_EXT = '.data';
/** files stat'ed and deleted at once */
const SWEEP_CONCURRENCY = 16;
/** multihash code of inline (identity) CIDs: no block is stored for them */
const IDENTITY = 0x00;

/** What one GC run did (POST /admin/storage/gc answers it; docs/storage.md, "Garbage collection"). */
export interface GcReport {
  blocksRemoved: number;
  bytesFreed: number;
  /** blocks left in the blockstore, and their bytes (the blockstore's usage after the run) */
  blocksKept: number;
  bytesKept: number;
  /** pinned roots walked to find the blocks to keep */
  roots: number;
  durationMs: number;
  startedAt: string;
}

export interface MarkAndSweepParams {
  /** the blockstore-fs directory */
  blocksDir: string;
  /** the unguarded store: marking reads link nodes without touching them */
  store: FsBlockstore;
  guard: BlockGuard;
  /** every pinned root: the node's pins (system pins included) and the pin records */
  roots: () => AsyncIterable<CID> | Iterable<CID>;
  getCodec: (code: number) => Promise<{ decode(bytes: Uint8Array): unknown }>;
  signal?: AbortSignal | undefined;
}

/**
 * One mark-and-sweep run over the embedded node's blockstore. Mark: every block reachable from a pinned
 * root (raw leaves by their CID alone, link nodes read and decoded). Sweep: every block file not marked
 * and not protected by the guard (work in flight, see block-guard.ts) is deleted. Our own walk rather
 * than `helia.gc()`: Helia's keeps a per-block pin count that its `pins.rm` can leave wrong for a block
 * shared by two pins (it filters `pinnedBy` the wrong way round), it holds the blockstore's write lock
 * for the whole run (every read waits), and it knows nothing of an upload between add and pin.
 */
export async function markAndSweep(p: MarkAndSweepParams): Promise<GcReport> {
  const started = Date.now();
  p.guard.beginRun();
  try {
    const live = new Set<string>();
    let roots = 0;
    for await (const root of p.roots()) {
      roots++;
      await mark(p, root, live);
    }
    const report = await sweep(p, live);
    return { ...report, roots, durationMs: Date.now() - started, startedAt: new Date(started).toISOString() };
  } finally {
    p.guard.endRun();
  }
}

async function mark(p: MarkAndSweepParams, root: CID, live: Set<string>) {
  const stack: CID[] = [root];
  while (stack.length) {
    p.signal?.throwIfAborted();
    const cid = stack.pop()!;
    if (cid.multihash.code === IDENTITY) continue;
    const key = blockKey(cid);
    if (live.has(key)) continue;
    live.add(key);
    if (cid.code === raw.code) continue;
    let bytes: Uint8Array;
    try {
      const parts: Uint8Array[] = [];
      for await (const part of p.store.get(cid, { signal: p.signal })) parts.push(part);
      bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    } catch {
      continue; // not here (a pin still fetching): nothing below it to keep
    }
    let codec: Awaited<ReturnType<MarkAndSweepParams['getCodec']>>;
    try {
      codec = await p.getCodec(cid.code);
    } catch {
      continue; // a codec this node cannot read: the block is kept, its links unknown
    }
    const block = createUnsafe({ cid, bytes, codec: codec as never });
    for (const [, link] of block.links()) stack.push(link);
  }
}

async function sweep(p: MarkAndSweepParams, live: Set<string>) {
  let blocksRemoved = 0;
  let bytesFreed = 0;
  let blocksKept = 0;
  let bytesKept = 0;
  const one = async (file: string) => {
    const key = path.basename(file, BLOCK_EXT);
    let size: number;
    try {
      size = (await lstat(file)).size;
    } catch {
      return; // gone meanwhile
    }
    const removed = await p.guard.sweep(key, live, () =>
      unlink(file).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      }),
    );
    if (removed) {
      blocksRemoved++;
      bytesFreed += size;
    } else {
      blocksKept++;
      bytesKept += size;
    }
  };
  const shards = await readdir(p.blocksDir, { withFileTypes: true }).catch(() => []);
  for (const shard of shards) {
    if (!shard.isDirectory()) continue;
    const dir = path.join(p.blocksDir, shard.name);
    const names = (await readdir(dir).catch(() => [] as string[])).filter(
      (n) => n.endsWith(BLOCK_EXT) && !n.startsWith('.'),
    );
    for (let i = 0; i < names.length; i += SWEEP_CONCURRENCY) {
      p.signal?.throwIfAborted();
      await Promise.all(names.slice(i, i + SWEEP_CONCURRENCY).map((n) => one(path.join(dir, n))));
    }
  }
  return { blocksRemoved, bytesFreed, blocksKept, bytesKept };
}

/** the blockstore's bytes on disk (block files only), for the GC watermark before the first run */
export async function blockstoreUsage(blocksDir: string): Promise<number> {
  let total = 0;
  const shards = await readdir(blocksDir, { withFileTypes: true }).catch(() => []);
  for (const shard of shards) {
    if (!shard.isDirectory()) continue;
    const dir = path.join(blocksDir, shard.name);
    for (const n of await readdir(dir).catch(() => [] as string[])) {
      if (!n.endsWith(BLOCK_EXT)) continue;
      total += await lstat(path.join(dir, n)).then(
        (s) => s.size,
        () => 0,
      );
    }
  }
  return total;
}
