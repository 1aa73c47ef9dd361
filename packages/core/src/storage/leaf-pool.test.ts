import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unixfs } from '@helia/unixfs';
import { FsBlockstore } from 'blockstore-fs';
import { FsDatastore } from 'datastore-fs';
import { createHeliaLight, type Helia } from 'helia';
import { afterAll, describe, expect, it } from 'vitest';
import { internalBroken } from '../shared/dependency-version';
import { LEAF_SIZE, pooledLeaves } from './leaf-pool';

const dirs: string[] = [];
const nodes: Helia[] = [];
afterAll(async () => {
  for (const n of nodes) await n.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function node() {
  const dir = mkdtempSync(path.join(tmpdir(), 'plenum-leaves-'));
  dirs.push(dir);
  const helia = createHeliaLight({
    blockstore: new FsBlockstore(path.join(dir, 'blocks')),
    datastore: new FsDatastore(path.join(dir, 'datastore')),
    blockBrokers: [],
  });
  await helia.start();
  nodes.push(helia);
  return { helia, fs: unixfs(helia) };
}

/** `bytes` in pieces of random sizes, the way a socket delivers them */
async function* pieces(bytes: Uint8Array) {
  for (let off = 0; off < bytes.length; ) {
    const n = 1 + Math.floor(Math.random() * 200_000);
    yield bytes.subarray(off, off + n);
    off += n;
  }
}

// the canary of leaf-pool.ts (docs/internals.md): it replaces pieces of @helia/unixfs's importer
const broken = (what: string) => internalBroken('@helia/unixfs', what);

describe('pooled leaves', () => {
  const sizes = [0, 1, 4096, LEAF_SIZE - 1, LEAF_SIZE, LEAF_SIZE + 1, 7 * LEAF_SIZE + 12_345, 24 * LEAF_SIZE];

  it('builds the same DAG as the default importer, and every stored block is intact', async () => {
    const plain = await node();
    const pooled = await node();
    for (const size of sizes) {
      const bytes = randomBytes(size);
      const expected = await plain.fs.addByteStream(pieces(bytes));
      const cid = await pooled.fs.addByteStream(pieces(bytes), pooledLeaves());
      expect(
        cid.toString(),
        broken(`pooled leaves built another DAG than the stock importer (size ${size})`),
      ).toBe(expected.toString());

      // a leaf reused too early would have changed bytes on disk after they were hashed: read them back
      const back: Buffer[] = [];
      for await (const part of pooled.fs.cat(cid)) back.push(Buffer.from(part));
      expect(
        Buffer.concat(back).equals(bytes),
        broken(`a pooled leaf was reused while the importer or blockstore still held it (size ${size})`),
      ).toBe(true);
    }
  });
});
