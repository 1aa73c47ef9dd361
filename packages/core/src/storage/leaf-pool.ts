import type { AddOptions } from '@helia/unixfs';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';

/** The leaf size of the DAG (the same as @helia/unixfs's default, so CIDs match a plain add). */
export const LEAF_SIZE = 1_048_576;

type Chunker = NonNullable<AddOptions['chunker']>;
type BufferImporter = NonNullable<AddOptions['bufferImporter']>;

/**
 * FENCED INTERNAL (docs/internals.md, "Pooled leaves"; the gain is recorded there).
 *
 * Replaces two pieces of @helia/unixfs's importer (ipfs-unixfs-importer underneath): the `chunker` and
 * the `bufferImporter` (whose yielded `{ cid, size, block }` shape is the importer's, not a documented
 * contract), and relies on two behaviours no API promises: the importer keeps only the first leaf (for
 * a single-leaf file), and the blockstore keeps no reference to a block once `put` resolved. Canary:
 * leaf-pool.test.ts (same CIDs as the stock importer, every stored block intact).
 *
 * Chunker and leaf writer for one add that recycle their 1 MiB leaf buffers. The importer's own chunker
 * allocates a fresh leaf for every MiB, and those dead leaves pile up outside the JavaScript heap until
 * V8 collects (it does so only after ~64 MB of them): the process grows by that much for a file it
 * never holds. Here a leaf goes back to the pool once its block is on disk, so an add needs about
 * blockWriteConcurrency + 2 leaves whatever the file's size.
 *
 * The DAG is the same as the default one: fixed 1 MiB raw leaves (CIDv1, sha2-256), so the CIDs are
 * equal to a plain add of the same bytes. A leaf is reused only after `blockstore.put` resolved: the
 * filesystem blockstore has written it by then and Helia's storage keeps no reference (announce gets
 * the CID only). The first leaf is never reused, because the importer keeps it for a single-leaf file.
 */
export function pooledLeaves(signal?: AbortSignal): Pick<AddOptions, 'chunker' | 'bufferImporter'> {
  const free: Buffer[] = [];
  const take = () => free.pop() ?? Buffer.allocUnsafeSlow(LEAF_SIZE);

  const chunker: Chunker = async function* (source) {
    let leaf = take();
    let filled = 0;
    let emitted = false;
    for await (const piece of source) {
      let offset = 0;
      while (offset < piece.length) {
        const n = Math.min(LEAF_SIZE - filled, piece.length - offset);
        leaf.set(piece.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled === LEAF_SIZE) {
          yield leaf;
          emitted = true;
          leaf = take();
          filled = 0;
        }
      }
    }
    // like the default chunker: an empty file is one empty leaf, and a partial last leaf is kept. It is
    // copied to its own size and the 1 MiB buffer (never yielded) goes back to the pool: a folder of
    // many small files would otherwise hold a dead 1 MiB per file until V8 collects
    if (!emitted || filled > 0) {
      yield Buffer.from(leaf.subarray(0, filled));
      free.push(leaf);
    }
  };

  const bufferImporter: BufferImporter = async function* (file, blockstore) {
    let first = true;
    for await (const block of file.content) {
      const reusable = !first;
      first = false;
      yield async () => {
        const cid = CID.createV1(raw.code, await sha256.digest(block));
        await blockstore.put(cid, block, { signal });
        const size = BigInt(block.length);
        if (reusable && block.length === LEAF_SIZE && Buffer.isBuffer(block)) free.push(block);
        return { cid, size, block };
      };
    }
  };

  return { chunker, bufferImporter };
}
