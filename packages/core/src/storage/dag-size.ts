import type { GraphWalkerFactory } from 'helia';
import { createUnsafe } from 'multiformats/block';
import type { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';

type WalkerInit = Parameters<GraphWalkerFactory>[0];

/** the identity "hash" keeps the bytes in the CID itself: nothing is stored for it */
const IDENTITY = 0x00;

/**
 * The bytes a DAG takes in a local blockstore: every distinct block once, raw leaves included, measured
 * from the blocks themselves (never from sizes a DAG claims for its links, which its author chose). A
 * verified pin by CID counts this against its owner's quota (docs/storage.md, "Quotas"). Every block
 * must be local (the pin just fetched them).
 */
export async function localDagSize(
  { blockstore, getCodec }: WalkerInit,
  root: CID,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<number> {
  const seen = new Set<string>();
  const stack: CID[] = [root];
  let total = 0;
  while (stack.length) {
    const cid = stack.pop()!;
    const key = cid.toString();
    if (seen.has(key)) continue;
    seen.add(key);
    options.signal?.throwIfAborted();
    if (cid.multihash.code === IDENTITY) continue;
    const parts: Uint8Array[] = [];
    for await (const p of blockstore.get(cid, { signal: options.signal })) parts.push(p);
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    total += bytes.length;
    if (cid.code === raw.code) continue;
    const block = createUnsafe({ cid, bytes, codec: await getCodec(cid.code) });
    for (const [, link] of block.links()) stack.push(link);
  }
  return total;
}
