import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unixfs } from '@helia/unixfs';
import { FsBlockstore } from 'blockstore-fs';
import { FsDatastore } from 'datastore-fs';
import { createHeliaLight, type Helia } from 'helia';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { afterEach, describe, expect, it } from 'vitest';
import { internalBroken } from '../shared/dependency-version';
import { leafSkippingWalker } from './pin-walker';

// the canary of pin-walker.ts (docs/internals.md): it replaces Helia's walker for pins.add/pins.rm
const broken = (what: string) => internalBroken('helia', what);

const dirs: string[] = [];
const nodes: Helia[] = [];
afterEach(async () => {
  for (const n of nodes.splice(0)) await n.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** a Helia node on disk; `source` (another node) serves blocks this one lacks, like the gateway broker */
async function node(source?: Helia) {
  const dir = mkdtempSync(path.join(tmpdir(), 'plenum-walker-'));
  dirs.push(dir);
  const blockstore = new FsBlockstore(path.join(dir, 'blocks'));
  const helia = createHeliaLight({
    blockstore,
    datastore: new FsDatastore(path.join(dir, 'datastore')),
    blockBrokers: source
      ? [
          {
            name: 'test-source',
            async retrieve(cid: CID) {
              const parts: Uint8Array[] = [];
              for await (const p of source.blockstore.get(cid)) parts.push(p);
              return Buffer.concat(parts);
            },
          },
        ]
      : [],
  });
  await helia.start();
  nodes.push(helia);
  return { helia, blockstore };
}

const pinnedBlocks = async (h: Helia, cid: CID, walker?: typeof leafSkippingWalker) => {
  const seen: string[] = [];
  for await (const c of h.pins.add(cid, walker ? { walker } : {})) seen.push(c.toString());
  return seen;
};

describe('leafSkippingWalker', () => {
  it('pins the same blocks in the same order as the default walker', async () => {
    const { helia } = await node();
    const fs = unixfs(helia);
    const bytes = randomBytes(3 * 1024 * 1024 + 17); // several leaves under one dag-pb root
    const cid = await fs.addBytes(bytes);
    const expected = await pinnedBlocks(helia, cid);
    for await (const _ of helia.pins.rm(cid)) {
      // drained
    }
    const got = await pinnedBlocks(helia, cid, leafSkippingWalker);
    expect(expected.length).toBeGreaterThan(2);
    expect(got, broken("the leaf-skipping walker visits other blocks than Helia's own walker")).toEqual(
      expected,
    );
    for (const c of got.slice(1))
      expect(await helia.pins.isPinned(CID.parse(c)), broken(`block ${c} is not pinned`)).toBe(true);
    // unpinning with it releases every block again
    for await (const _ of helia.pins.rm(cid, { walker: leafSkippingWalker })) {
      // drained
    }
    expect(await helia.pins.isPinned(cid), broken('pins.rm with the walker left the pin')).toBe(false);
  });

  it('fetches a raw leaf the node lacks, so every pinned block is local afterwards', async () => {
    const src = await node();
    const bytes = randomBytes(2 * 1024 * 1024 + 5);
    const cid = await unixfs(src.helia).addBytes(bytes);
    const { helia, blockstore } = await node(src.helia);
    const seen = await pinnedBlocks(helia, cid, leafSkippingWalker);
    const leaves = seen.filter((c) => c.startsWith('bafkrei'));
    expect(leaves.length).toBeGreaterThan(1);
    for (const c of seen) {
      const parsed = CID.parse(c);
      if (parsed.code === raw.code) expect(await blockstore.has(parsed)).toBe(true);
    }
    const back: Uint8Array[] = [];
    for await (const p of unixfs(helia).cat(cid, { offline: true })) back.push(p);
    expect(Buffer.concat(back).equals(bytes)).toBe(true);
  });
});
