import type { GraphNode, GraphWalkerFactory } from 'helia';
import { createUnsafe } from 'multiformats/block';
import type { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';

const collect = async (parts: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) => {
  const chunks: Uint8Array[] = [];
  for await (const p of parts) chunks.push(p);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
};

/**
 * FENCED INTERNAL (docs/internals.md, "Leaf-skipping pin walker"; the gain is recorded there).
 *
 * Replaces Helia's graph walker for `pins.add`/`pins.rm` (their `walker` option) and relies on what
 * helia 7 does with it: it uses only each node's `block.cid`, so a raw leaf can be yielded without its
 * bytes. Canary: pin-walker.test.ts (the same blocks, in the same order, as Helia's own walker; pins
 * and unpins work with it).
 *
 * Helia's pin walk for the embedded node. The default walker reads every block of the DAG, raw leaves
 * included, although a raw block has no links: pinning a 100 MB upload read the whole file back from
 * disk (seconds). This walker reads only blocks that can link (dag-pb and other codecs) and, for a raw
 * leaf, asks the blockstore whether it holds it; a leaf it lacks is fetched like any block (the block
 * brokers: verified gateways), so after a pin every block is still local, as with the default walker.
 *
 * A raw leaf is yielded without its bytes: Helia's `pins.add`/`pins.rm` (helia 7) use only
 * `node.block.cid`, and this walker is only handed to them.
 */
export const leafSkippingWalker: GraphWalkerFactory = ({ blockstore, getCodec }) => ({
  async *walk<T>(root: CID, options: { depth?: number; signal?: AbortSignal } = {}) {
    const maxDepth = options.depth ?? Number.POSITIVE_INFINITY;
    // depth first, children in link order (a stack holding them reversed)
    const stack: { cid: CID; depth: number; path: CID[] }[] = [{ cid: root, depth: 0, path: [root] }];
    while (stack.length) {
      const next = stack.pop()!;
      options.signal?.throwIfAborted();
      if (next.cid.code === raw.code && (await blockstore.has(next.cid, options))) {
        yield { block: { cid: next.cid }, depth: next.depth, path: next.path } as unknown as GraphNode<T>;
        continue;
      }
      const bytes = await collect(blockstore.get(next.cid, options));
      const block = createUnsafe({ cid: next.cid, bytes, codec: await getCodec(next.cid.code) });
      if (next.depth < maxDepth) {
        const links = [...block.links()].map(([, cid]) => cid);
        for (let i = links.length - 1; i >= 0; i--) {
          const cid = links[i]!;
          stack.push({ cid, depth: next.depth + 1, path: [...next.path, cid] });
        }
      }
      yield { block, depth: next.depth, path: next.path } as GraphNode<T>;
    }
  },
});
