import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FsBlockstore } from 'blockstore-fs';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { BlockGuard, blockKey } from './block-guard';

const cidOf = async (text: string) =>
  CID.createV1(raw.code, await sha256.digest(new TextEncoder().encode(text)));

describe('blockKey', () => {
  it('names the file blockstore-fs writes for the block (canary for the sweep, which reads file names)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'plenum-guard-'));
    try {
      const store = new FsBlockstore(dir);
      await store.open();
      const cid = await cidOf('hello');
      await store.put(cid, new TextEncoder().encode('hello'));
      const key = blockKey(cid);
      expect(existsSync(path.join(dir, key.slice(-2), `${key}.data`))).toBe(true);
      // CIDv0 and v1 of one multihash are one block
      expect(blockKey(CID.createV0(cid.multihash as never))).toBe(key);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('BlockGuard', () => {
  const deleted: string[] = [];
  const remove = (k: string) => async () => void deleted.push(k);

  it('a run keeps what an open lease touched before it began and what anyone touches during it', async () => {
    const g = new BlockGuard();
    const lease = g.lease();
    g.touch('A');
    g.beginRun();
    g.touch('B');
    const live = new Set<string>();
    expect(await g.sweep('A', live, remove('A'))).toBe(false);
    expect(await g.sweep('B', live, remove('B'))).toBe(false);
    expect(await g.sweep('C', live, remove('C'))).toBe(true);
    lease.release();
    g.endRun();
    expect(deleted).toEqual(['C']);
  });

  it('a lease released during a run hands its blocks to the run; touches outside leases and runs protect nothing', async () => {
    const g = new BlockGuard();
    g.touch('X');
    const lease = g.lease();
    g.touch('D');
    g.beginRun();
    lease.release();
    expect(await g.sweep('D', new Set(), remove('D'))).toBe(false);
    expect(await g.sweep('X', new Set(), remove('X'))).toBe(true);
    g.endRun();
    g.beginRun();
    expect(await g.sweep('D', new Set(), remove('D'))).toBe(true);
    expect(await g.sweep('L', new Set(['L']), remove('L'))).toBe(false);
    g.endRun();
  });

  it('a touch of a block being deleted waits for the delete to finish', async () => {
    const g = new BlockGuard();
    let finish!: () => void;
    g.beginRun();
    const sweeping = g.sweep('E', new Set(), () => new Promise<void>((r) => (finish = r)));
    const order: string[] = [];
    const touched = Promise.resolve(g.touch('E')).then(() => order.push('touch'));
    await Promise.resolve();
    order.push('delete');
    finish();
    await Promise.all([sweeping, touched]);
    expect(order).toEqual(['delete', 'touch']);
    g.endRun();
  });
});
