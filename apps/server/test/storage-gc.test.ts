import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StorageRuntime } from '@plenum/core';
import { auditLog } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, memberUser, type TestUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';
import { startKuboStandIn } from './support/kubo-rpc-stand-in';
import { uploadBytes } from './support/storage';

/**
 * Garbage collection of the embedded node (docs/storage.md, "Garbage collection"): blocks no pin needs
 * go, blocks of pinned DAGs (shared ones too) and of uploads and pins in flight stay; POST
 * /admin/storage/gc is admin-only and audited; IPFS_GC_WATERMARK starts a run after an unpin; Kubo says
 * GC_NOT_SUPPORTED.
 */
const ADMIN = 'gc-admin@example.org';
const MiB = 1 << 20;
let t: TestApp;
let api: ApiClient;
let admin: TestUser;
let alice: Awaited<ReturnType<typeof memberUser>>;
let bob: Awaited<ReturnType<typeof memberUser>>;
const storage = () => t.app.svc.storage as StorageRuntime;

beforeAll(async () => {
  // IPFS_GC_WATERMARK=0: no automatic run in this app, so every run here is one the test asked for
  t = await startTestApp({ env: { ADMIN_EMAILS: ADMIN, IPFS_TIMEOUT: '20000', IPFS_GC_WATERMARK: '0' } });
  api = apiClient(t.url);
  [admin, alice, bob] = await Promise.all([
    activeUser(api, { email: ADMIN }),
    memberUser(api),
    memberUser(api),
  ]);
});
afterAll(() => t?.close());

/** the block keys on disk (blockstore-fs: DATA_DIR/ipfs/blocks/<shard>/<key>.data) */
function blockFiles(dataDir: string): Set<string> {
  const root = path.join(dataDir, 'ipfs', 'blocks');
  const keys = new Set<string>();
  if (!existsSync(root)) return keys;
  for (const shard of readdirSync(root, { withFileTypes: true }))
    if (shard.isDirectory())
      for (const f of readdirSync(path.join(root, shard.name))) if (f.endsWith('.data')) keys.add(f);
  return keys;
}

/** one 1 MiB leaf of text, different for every seed (files are cut in 1 MiB raw leaves) */
const segment = (seed: string) => Buffer.alloc(MiB, `${seed} `.padEnd(64, '.'));
const file = (...parts: (Buffer | string)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));

const upload = async (user: { token: string }, bytes: Buffer) => {
  const res = await uploadBytes(api, user.token, bytes, 'f.txt', 'text/plain');
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.cid as string;
};
const unpin = async (user: { token: string }, cid: string) =>
  expect((await api.delete(`/ipfs/unpin/${cid}`, { token: user.token })).status).toBe(200);
const gc = (token = admin.token) => api.post('/admin/storage/gc', undefined, { token });
const readBack = async (cid: string) => {
  const res = await fetch(`${t.url}/ipfs/file/${cid}`);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
};
const added = (before: Set<string>, after: Set<string>) => [...after].filter((k) => !before.has(k));

describe('POST /admin/storage/gc', () => {
  it('after an unpin, a run removes the DAG’s blocks and reports the bytes freed; the action is audited', async () => {
    const before = blockFiles(t.dataDir);
    const bytes = file(segment('gone-1'), segment('gone-2'), 'and a tail');
    const cid = await upload(alice, bytes);
    const blocks = added(before, blockFiles(t.dataDir));
    expect(blocks.length).toBe(4); // three leaves and the root
    await unpin(alice, cid);
    // watermark 0: nothing runs by itself
    expect(added(before, blockFiles(t.dataDir)).length).toBe(4);

    const res = await gc();
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ trigger: 'admin', blocksRemoved: expect.any(Number) });
    expect(res.body.blocksRemoved).toBeGreaterThanOrEqual(4);
    expect(res.body.bytesFreed).toBeGreaterThanOrEqual(bytes.length);
    expect(res.body.durationMs).toBeGreaterThanOrEqual(0);
    const now = blockFiles(t.dataDir);
    expect(blocks.filter((k) => now.has(k))).toEqual([]);
    expect(res.body.blocksKept).toBe(now.size);
    expect((await readBack(cid)).status).toBe(404);

    const rows = await t.app.svc.db.select().from(auditLog).where(eq(auditLog.action, 'storage.gc'));
    expect(rows.at(-1)).toMatchObject({
      actorId: admin.id,
      targetType: 'storage',
      targetId: 'embedded',
      details: { blocksRemoved: res.body.blocksRemoved, bytesFreed: res.body.bytesFreed },
    });
  });

  it('removes a private file’s blocks right after its last record goes, with no watermark, so no one reads it after', async () => {
    const before = blockFiles(t.dataDir);
    const bytes = file(segment('hidden-1'), 'a private tail');
    const form = new FormData();
    form.append('visibility', 'private');
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'text/plain' }), 'secret.txt');
    const res = await fetch(`${t.url}/ipfs/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(res.status).toBe(201);
    const { cid } = (await res.json()) as { cid: string };
    const blocks = added(before, blockFiles(t.dataDir));
    expect(blocks.length).toBe(3); // two leaves and the root
    await unpin(alice, cid);
    // the run starts by itself (IPFS_GC_WATERMARK is 0 here); wait for it to end, not for time
    await storage().idle();
    const now = blockFiles(t.dataDir);
    expect(blocks.filter((k) => now.has(k))).toEqual([]);
    expect((await readBack(cid)).status).toBe(404);
  });

  it('keeps a block shared with a pinned DAG (also after unpin, re-pin and unpin of the other owner)', async () => {
    const shared = segment('shared');
    const a = file(shared, 'file a');
    const b = file(shared, 'file b');
    const before = blockFiles(t.dataDir);
    const cidA = await upload(alice, a);
    const cidB = await upload(bob, b);
    // Helia's own pin counts lose the shared leaf on this sequence; the walk over the pins does not
    await unpin(alice, cidA);
    expect(await upload(alice, a)).toBe(cidA);
    await unpin(bob, cidB);
    expect((await gc()).status).toBe(202);
    const left = blockFiles(t.dataDir);
    expect(added(before, left).length).toBe(3); // A's root, the shared leaf, A's tail
    const readA = await readBack(cidA);
    expect(readA.status).toBe(200);
    expect(readA.bytes.equals(a)).toBe(true);
    expect((await readBack(cidB)).status).toBe(404);
  });

  it('GC running during 10 uploads and 5 pins by CID of overlapping content loses nothing', async () => {
    const A = segment('common-A');
    const B = segment('common-B');
    const contents = Array.from({ length: 10 }, (_, i) => file(A, B, `content ${i}`));
    // every CID known up front, and everything garbage again: blocks an import or a fetch finds here
    // are relied on before any pin holds them, and GC may take them at any moment
    const cids: string[] = [];
    for (const bytes of contents) cids.push(await upload(alice, bytes));
    for (const cid of cids) await unpin(alice, cid);
    await unpin(alice, await upload(alice, file(A, B, 'garbage')));

    let stop = false;
    let runs = 0;
    const collector = (async () => {
      while (!stop) {
        const res = await gc();
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        runs++;
      }
    })();
    // bob pins five by CID (in flight until the bytes arrive) while alice uploads all ten, then alice
    // lets go of those five: bob's pins alone hold them
    const pins = cids.slice(0, 5).map(async (cid) => {
      const res = await api.post(`/ipfs/pin/${cid}`, undefined, { token: bob.token });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    });
    const uploads = contents.map(async (bytes, i) => {
      expect(await upload(alice, bytes)).toBe(cids[i]);
      if (i < 5) await unpin(alice, cids[i]!);
    });
    await Promise.all([...pins, ...uploads]);
    await storage().idle();
    stop = true;
    await collector;
    expect(runs).toBeGreaterThan(1);
    expect((await gc()).status).toBe(202);

    const mine = await api.get('/pins?limit=1000', { token: bob.token });
    const byCid = new Map(
      (mine.body.results as { pin: { cid: string }; status: string; info?: unknown }[]).map((r) => [
        r.pin.cid,
        r,
      ]),
    );
    for (const cid of cids.slice(0, 5))
      expect(byCid.get(cid)?.status, JSON.stringify(byCid.get(cid))).toBe('pinned');
    for (const [i, cid] of cids.entries()) {
      const back = await readBack(cid);
      expect(back.status, cid).toBe(200);
      expect(back.bytes.equals(contents[i]!), cid).toBe(true);
    }
  });

  it('is for admins only: 403 for members (many at once), 401 without a session; admins at once all get a report', async () => {
    const members = await Promise.all(Array.from({ length: 10 }, () => gc(alice.token)));
    expect(members.map((r) => r.status)).toEqual(Array(10).fill(403));
    expect((await api.post('/admin/storage/gc')).status).toBe(401);
    const admins = await Promise.all(Array.from({ length: 10 }, () => gc()));
    expect(admins.map((r) => r.status)).toEqual(Array(10).fill(202));
    for (const r of admins)
      expect(r.body).toMatchObject({ blocksKept: expect.any(Number), trigger: 'admin' });
  });
});

describe('IPFS_GC_WATERMARK', () => {
  it('an unpin with the blockstore at the watermark starts a run by itself', async () => {
    const w = await startTestApp({ env: { IPFS_GC_WATERMARK: '1' } });
    try {
      const wapi = apiClient(w.url);
      const user = await memberUser(wapi);
      const before = blockFiles(w.dataDir);
      const keep = await uploadBytes(wapi, user.token, file(segment('kept'), 'kept'), 'k.txt', 'text/plain');
      const withKept = blockFiles(w.dataDir);
      const res = await uploadBytes(wapi, user.token, file(segment('auto'), 'auto'), 'a.txt', 'text/plain');
      expect([keep.status, res.status]).toEqual([201, 201]);
      const blocks = added(withKept, blockFiles(w.dataDir));
      expect(blocks.length).toBe(3);
      expect((await wapi.delete(`/ipfs/unpin/${res.body.cid}`, { token: user.token })).status).toBe(200);
      // the unpin started the run as tracked background work before it answered
      await (w.app.svc.storage as StorageRuntime).idle();
      const now = blockFiles(w.dataDir);
      expect(blocks.filter((k) => now.has(k))).toEqual([]);
      expect(added(before, blockFiles(w.dataDir)).length).toBe(3); // the kept file's blocks stay
    } finally {
      await w.close();
    }
  });
});

describe('on Kubo', () => {
  it('answers 409 GC_NOT_SUPPORTED: Kubo collects its own garbage', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'plenum-gc-kubo-'));
    const kubo = await startKuboStandIn(dir);
    const k = await startTestApp({ env: { IPFS_NODE_URL: kubo.url, ADMIN_EMAILS: ADMIN } });
    try {
      const kapi = apiClient(k.url);
      const kadmin = await activeUser(kapi, { email: ADMIN });
      const res = await kapi.post('/admin/storage/gc', undefined, { token: kadmin.token });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'CONFLICT', reason: 'GC_NOT_SUPPORTED' });
    } finally {
      await k.close();
      await kubo.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
