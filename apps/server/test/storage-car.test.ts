import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as dagCbor from '@ipld/dag-cbor';
import { parseCid, type StorageRuntime } from '@plenum/core';
import { pins } from '@plenum/db';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { buildCar, postCar } from './support/car-build';
import { memberUser, PASSWORD } from './support/factories';
import { type ApiClient, apiClient } from './support/http';
import { type KuboStandIn, startKuboStandIn } from './support/kubo-rpc-stand-in';
import { referenceFolderCid, uploadFolder } from './support/storage';

/** POST /ipfs/car (docs/storage.md, "CAR import"): verified blocks, roots pinned, incomplete CARs refused. */
const MAX = 3 * 1_048_576;
const hex = (n: number) =>
  randomBytes(Math.ceil(n / 2))
    .toString('hex')
    .slice(0, n);
const rawBlock = async (bytes: Uint8Array) => ({
  cid: CID.createV1(raw.code, await sha256.digest(bytes)),
  bytes,
});
const cborBlock = async (value: unknown) => {
  const bytes = dagCbor.encode(value);
  return { cid: CID.createV1(dagCbor.code, await sha256.digest(bytes)), bytes };
};

/** a folder's DAG (two files, one over a leaf) as the importer builds it */
async function folderDag() {
  const files = [
    { path: 'a.txt', bytes: `car a ${hex(100)}` },
    { path: 'sub/b.txt', bytes: hex(1_048_576 + 300) },
  ];
  const ref = await referenceFolderCid(files);
  return { files, root: CID.parse(ref.root), blocks: ref.blocks };
}

describe('POST /ipfs/car on the embedded node', () => {
  let t: TestApp;
  let api: ApiClient;
  const storage = () => t.app.svc.storage as StorageRuntime;
  const stored = (cid: CID) =>
    storage().node.getBlock!(cid).then(
      () => true,
      () => false,
    );
  const spoolEmpty = () => readdirSync(path.join(t.dataDir, 'upload-spool')).length === 0;

  beforeAll(async () => {
    t = await startTestApp({ env: { MAX_FILE_SIZE: String(MAX) } });
    api = apiClient(t.url);
  });
  afterAll(() => t?.close());

  it('imports a CAR: every root pinned for the caller, the files read back byte for byte', async () => {
    const user = await memberUser(api);
    const dag = await folderDag();
    const leaf = await rawBlock(Buffer.from(`linked from cbor ${hex(20)}`));
    const record = await cborBlock({ name: 'record', file: leaf.cid });
    const car = await buildCar([dag.root, record.cid], [...dag.blocks, leaf, record]);
    const res = await postCar(t.url, user.token, car);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const folderSize = dag.blocks.reduce((n, b) => n + b.bytes.length, 0);
    expect(res.body).toEqual({
      roots: [
        { cid: dag.root.toString(), size: folderSize },
        { cid: record.cid.toString(), size: record.bytes.length + leaf.bytes.length },
      ],
      blocks: dag.blocks.length + 2,
      size: folderSize + record.bytes.length + leaf.bytes.length,
    });
    for (const f of dag.files) {
      const file = await fetch(`${t.url}/ipfs/file/${dag.root}/${f.path}`);
      expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(f.bytes)), f.path).toBe(true);
    }
    const rows = await t.app.svc.db.select().from(pins);
    expect(rows.map((r) => [r.cid, r.status]).sort()).toEqual(
      [
        [dag.root.toString(), 'pinned'],
        [record.cid.toString(), 'pinned'],
      ].sort(),
    );
    expect(await storage().node.isPinned(record.cid)).toBe(true);
    expect(await stored(leaf.cid)).toBe(true);
    await storage().idle();
    const after = await t.app.svc.db.select().from(pins);
    expect(after.every((r) => r.status === 'pinned' && r.verifiedAt)).toBe(true);
    expect(spoolEmpty()).toBe(true);
  });

  it('refuses an incomplete CAR, a tampered block and what is no CAR, leaving no block and no record', async () => {
    const user = await memberUser(api);
    const before = (await t.app.svc.db.select().from(pins)).length;
    const dag = await folderDag();
    const kept = dag.blocks.filter((b) => b.cid.code === raw.code).slice(0, 1);
    // a leaf of the big file is missing
    const missing = dag.blocks.find((b) => b.cid.code === raw.code && b.bytes.length === 1_048_576)!;
    const incomplete = await buildCar(
      [dag.root],
      dag.blocks.filter((b) => b !== missing),
    );
    const inc = await postCar(t.url, user.token, incomplete);
    expect([inc.status, inc.body.reason]).toEqual([400, 'INCOMPLETE_CAR']);
    expect(inc.body.message).toContain(missing.cid.toString());

    // a block whose bytes do not hash to its CID
    const good = await rawBlock(Buffer.from(`good ${hex(30)}`));
    const tampered = { cid: good.cid, bytes: Buffer.from(`evil ${hex(30)}`) };
    const tam = await postCar(t.url, user.token, await buildCar([good.cid], [tampered]));
    expect([tam.status, tam.body.reason]).toEqual([400, 'INVALID_CAR_BLOCK']);
    // the tampered block after good ones: none of them stays
    const other = await rawBlock(Buffer.from(`other ${hex(30)}`));
    const late = await buildCar([other.cid], [other, ...kept, tampered]);
    expect((await postCar(t.url, user.token, late)).body.reason).toBe('INVALID_CAR_BLOCK');

    const garbage = await postCar(t.url, user.token, Buffer.from('this is no CAR at all'));
    expect([garbage.status, garbage.body.reason]).toEqual([400, 'INVALID_CAR']);
    const noRoot = await postCar(t.url, user.token, await buildCar([], [good]));
    expect([noRoot.status, noRoot.body.reason]).toEqual([400, 'INVALID_CAR']);
    const empty = await postCar(t.url, user.token, Buffer.alloc(0));
    expect([empty.status, empty.body.reason]).toEqual([400, 'CAR_REQUIRED']);
    const wrongType = await postCar(t.url, user.token, incomplete, 'application/octet-stream');
    expect([wrongType.status, wrongType.body.reason]).toEqual([415, 'CAR_REQUIRED']);
    const big = await rawBlock(randomBytes(MAX + 10));
    const tooBig = await postCar(t.url, user.token, await buildCar([big.cid], [big]));
    expect([tooBig.status, tooBig.body.reason]).toEqual([413, 'FILE_TOO_LARGE']);
    const anonymous = await fetch(`${t.url}/ipfs/car`, {
      method: 'POST',
      body: new Uint8Array(incomplete),
      headers: { 'content-type': 'application/vnd.ipld.car' },
    });
    expect(anonymous.status).toBe(401);

    for (const b of [...dag.blocks, good, other])
      expect(await stored(b.cid), `${b.cid} stored after a refusal`).toBe(false);
    expect(await t.app.svc.db.select().from(pins)).toHaveLength(before);
    expect(spoolEmpty()).toBe(true);
  });

  it('needs the storage scope, and a session cookie from another origin is refused (CSRF)', async () => {
    const user = await memberUser(api);
    const before = (await t.app.svc.db.select().from(pins)).length;
    const leaf = await rawBlock(Buffer.from(`scoped ${hex(20)}`));
    const car = await buildCar([leaf.cid], [leaf]);
    const token = await api.post('/auth/tokens', { name: 'r', scopes: ['read'] }, { token: user.token });
    const scoped = await postCar(t.url, token.body.token, car);
    expect([scoped.status, scoped.body.reason]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    const login = await api.post('/auth/login', { email: user.email, password: PASSWORD });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const forged = await fetch(`${t.url}/ipfs/car`, {
      method: 'POST',
      body: new Uint8Array(car),
      headers: { cookie, origin: 'http://evil.localhost:3000', 'content-type': 'application/vnd.ipld.car' },
    });
    expect([forged.status, (await forged.json()).reason]).toEqual([403, 'CSRF']);
    expect(await stored(leaf.cid)).toBe(false);
    expect(await t.app.svc.db.select().from(pins)).toHaveLength(before);
  });

  it('concurrent CAR imports: complete ones pinned, incomplete ones refused, counted', async () => {
    const user = await memberUser(api);
    const n = TEST_DB === 'postgres' ? 12 : 4;
    const before = (await t.app.svc.db.select().from(pins)).length;
    const cars = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const leaf = await rawBlock(Buffer.from(`leaf ${i} ${hex(40)}`));
        const root = await cborBlock({ i, leaf: leaf.cid });
        return { root, car: await buildCar([root.cid], i % 2 ? [root] : [leaf, root]) };
      }),
    );
    const results = await Promise.all(cars.map((c) => postCar(t.url, user.token, c.car)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(n / 2);
    expect(results.filter((r) => r.body.reason === 'INCOMPLETE_CAR')).toHaveLength(n / 2);
    const rows = await t.app.svc.db.select().from(pins);
    expect(rows).toHaveLength(before + n / 2);
    for (const [i, c] of cars.entries())
      expect(await storage().node.isPinned(c.root.cid), `car ${i}`).toBe(i % 2 === 0);
    expect(spoolEmpty()).toBe(true);
  });
});

describe('folders and CAR on Kubo (the RPC stand-in)', () => {
  let kubo: KuboStandIn;
  let t: TestApp;
  let api: ApiClient;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'plenum-kubo-car-'));
    kubo = await startKuboStandIn(dir);
    t = await startTestApp({ env: { IPFS_NODE_URL: kubo.url, IPFS_TIMEOUT: '5000' } });
    api = apiClient(t.url);
  });
  afterAll(async () => {
    await t?.close();
    await kubo?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports a CAR through dag/import and pins its root', async () => {
    const user = await memberUser(api);
    const dag = await folderDag();
    const res = await postCar(t.url, user.token, await buildCar([dag.root], dag.blocks));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(kubo.calls).toContain('dag/import');
    expect(await kubo.node.isPinned(dag.root)).toBe(true);
    const file = await fetch(`${t.url}/ipfs/file/${dag.root}/sub/b.txt`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(dag.files[1]!.bytes))).toBe(true);
    const ls = await api.get(`/ipfs/ls/${dag.root}`);
    expect(ls.body.entries.map((e: { name: string; type: string }) => [e.name, e.type]).sort()).toEqual([
      ['a.txt', 'file'],
      ['sub', 'directory'],
    ]);
  });

  it('uploads a folder through add with wrap-with-directory', async () => {
    const user = await memberUser(api);
    const files = [
      { path: 'k/one.txt', bytes: `kubo one ${hex(30)}` },
      { path: 'two.txt', bytes: `kubo two ${hex(30)}` },
    ];
    const up = await uploadFolder(api, user.token, files);
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(await kubo.node.isPinned(parseCid(up.body.cid).cid)).toBe(true);
    for (const f of files) {
      const res = await fetch(`${t.url}/ipfs/file/${up.body.cid}/${f.path}`);
      expect(await res.text()).toBe(f.bytes);
    }
  });
});
