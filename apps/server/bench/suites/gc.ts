import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEmbeddedNode } from '@plenum/core';
import { FsBlockstore } from 'blockstore-fs';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import type { BenchContext } from '../run';

const BLOCKS = Number(process.env.BENCH_GC_BLOCKS ?? 10_000);
const BLOCK_SIZE = 4096;
const MiB = 1024 * 1024;

/**
 * Garbage collection of the embedded node (docs/storage.md, "Garbage collection"): a blockstore with
 * BLOCKS unpinned blocks (4 KiB each) next to a pinned 20 MiB file; one run removes the unpinned ones,
 * walking the pin to keep its blocks. Prints the run's rate in blocks removed per second.
 */
export default async function gcBench(ctx: BenchContext) {
  const dir = mkdtempSync(path.join(tmpdir(), 'plenum-bench-gc-'));
  try {
    const store = new FsBlockstore(path.join(dir, 'ipfs', 'blocks'));
    await store.open();
    for (let i = 0; i < BLOCKS; i++) {
      const bytes = randomBytes(BLOCK_SIZE);
      await store.put(CID.createV1(raw.code, await sha256.digest(bytes)), bytes);
    }
    const node = await createEmbeddedNode({ dir: path.join(dir, 'ipfs'), timeoutMs: 30_000, swarm: null });
    try {
      const kept = await node.add(
        (async function* () {
          for (let i = 0; i < 20; i++) yield randomBytes(MiB);
        })(),
      );
      await node.pin(kept);
      const report = await node.collectGarbage!({ roots: [] });
      console.log(
        `  gc: ${report.blocksRemoved} blocks (${(report.bytesFreed / MiB).toFixed(1)} MiB) removed in ${report.durationMs} ms, ${report.blocksKept} kept (pinned)`,
      );
      ctx.record({
        name: 'gc: unpinned blocks removed',
        value: report.blocksRemoved,
        unit: 'blocks',
        target: { op: '=', value: BLOCKS },
      });
      ctx.record({
        name: 'gc: rate',
        value: report.blocksRemoved / (Math.max(report.durationMs, 1) / 1000),
        unit: 'blocks/s',
      });
      // the pinned file is whole after the run
      const source = await node.open(kept);
      let bytes = 0;
      for await (const chunk of source.chunks) bytes += chunk.length;
      if (bytes !== 20 * MiB) throw new Error(`the pinned file lost bytes in GC: ${bytes}`);
    } finally {
      await node.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
