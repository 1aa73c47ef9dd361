import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unixfs } from '@helia/unixfs';
import { FsBlockstore } from 'blockstore-fs';
import { FsDatastore } from 'datastore-fs';
import { createHeliaLight, type Helia } from 'helia';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterEach, describe, expect, it } from 'vitest';
import { BlockPrivacy, type RootVisibility } from './block-privacy';

const dirs: string[] = [];
const nodes: Helia[] = [];
afterEach(async () => {
  for (const n of nodes.splice(0)) await n.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function node() {
  const dir = mkdtempSync(path.join(tmpdir(), 'plenum-privacy-'));
  dirs.push(dir);
  const blockstore = new FsBlockstore(path.join(dir, 'blocks'));
  const helia = createHeliaLight({ blockstore, datastore: new FsDatastore(path.join(dir, 'data')) });
  await helia.start();
  nodes.push(helia);
  const fs = unixfs(helia);
  const add = async (bytes: Uint8Array) =>
    (await fs.addBytes(bytes, { rawLeaves: true, cidVersion: 1, chunker: undefined } as never)) as CID;
  return { helia, blockstore, add };
}

/** pin records as a map: CID → its visibility (what storage/visibility.ts reads from the database) */
function records(map: Map<string, RootVisibility>) {
  return {
    visibilityOf: async (cid: string) => map.get(cid) ?? 'none',
    roots: async () => ({
      restricted: [...map].filter(([, v]) => v === 'restricted').map(([c]) => c),
      public: [...map].filter(([, v]) => v === 'public').map(([c]) => c),
    }),
  };
}

const leafOf = async (bytes: Uint8Array) => CID.createV1(raw.code, await sha256.digest(bytes));

describe('BlockPrivacy', () => {
  it('refuses everything until built, then the blocks of non-public DAGs only, shared public blocks served', async () => {
    const { helia, blockstore, add } = await node();
    const shared = Buffer.alloc(262_144, 1);
    const open = await add(shared);
    const secret = await add(Buffer.concat([shared, Buffer.alloc(1000, 2)]));
    const alone = await add(Buffer.from('only private'));
    const guard = new BlockPrivacy(blockstore, (code) => helia.getCodec(code));
    expect(guard.refuses(open)).toBe(true);

    const map = new Map<string, RootVisibility>([
      [open.toString(), 'public'],
      [secret.toString(), 'restricted'],
      [alone.toString(), 'restricted'],
    ]);
    await guard.attach(records(map));
    expect(guard.refuses(secret)).toBe(true);
    expect(guard.refuses(alone)).toBe(true);
    expect(guard.refuses(await leafOf(Buffer.alloc(1000, 2)))).toBe(true);
    // the leaf the secret file shares with a public one stays served
    expect(guard.refuses(await leafOf(shared))).toBe(false);
    expect(guard.refuses(open)).toBe(false);
    // the same multihash under another CID is the same block
    expect(guard.refuses(CID.createV1(0x55, alone.multihash))).toBe(true);

    // made public: served; its records removed: refused until the next start
    map.set(secret.toString(), 'public');
    await guard.changed(secret.toString());
    expect(guard.refuses(secret)).toBe(false);
    map.delete(alone.toString());
    await guard.changed(alone.toString());
    expect(guard.refuses(alone)).toBe(true);
  });

  it('a hold refuses what it marks until released; a new non-public root is refused at once', async () => {
    const { helia, blockstore, add } = await node();
    const guard = new BlockPrivacy(blockstore, (code) => helia.getCodec(code));
    const map = new Map<string, RootVisibility>();
    await guard.attach(records(map));
    const cid = await add(Buffer.from('held'));
    expect(guard.refuses(cid)).toBe(false);
    const hold = guard.hold();
    hold.mark(cid);
    expect(guard.refuses(cid)).toBe(true);
    map.set(cid.toString(), 'restricted');
    await guard.changed(cid.toString());
    hold.release();
    expect(guard.refuses(cid)).toBe(true);
    await guard.idle();
    map.set(cid.toString(), 'public');
    await guard.changed(cid.toString());
    expect(guard.refuses(cid)).toBe(false);
  });
});
