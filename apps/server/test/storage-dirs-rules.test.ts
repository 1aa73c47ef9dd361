import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import * as dagPb from '@ipld/dag-pb';
import { parseCid, type StorageRuntime } from '@plenum/core';
import { pins } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { buildCar, postCar } from './support/car-build';
import { memberUser } from './support/factories';
import { type ApiClient, type ApiResponse, apiClient } from './support/http';
import { uploadBytes, uploadFolder } from './support/storage';

/**
 * Folders and CAR imports under the rules every upload follows (docs/storage.md, "Folders and several
 * files", "CAR import"): who may read a folder is decided on its CID before any path inside it, quotas
 * refuse a folder or a CAR before anything is stored, visibility and the peers' hold apply, and a GC run
 * between the import and the pin removes nothing.
 */
const QUOTA = 20_000;
let t: TestApp;
let api: ApiClient;
const storage = () => t.app.svc.storage as StorageRuntime;

beforeAll(async () => {
  // a short IPFS_TIMEOUT: a pin whose blocks GC took would fail within it
  t = await startTestApp({ env: { STORAGE_QUOTA_BYTES: String(QUOTA), IPFS_TIMEOUT: '3000' } });
  api = apiClient(t.url);
});
afterAll(() => t?.close());

const hex = (n: number) =>
  randomBytes(Math.ceil(n / 2))
    .toString('hex')
    .slice(0, n);
const rawBlock = async (bytes: Uint8Array) => ({
  cid: CID.createV1(raw.code, await sha256.digest(bytes)),
  bytes,
});
/** a one-block CAR of `n` bytes of text: its root's DAG counts n bytes */
async function textCar(n: number) {
  const block = await rawBlock(new TextEncoder().encode(hex(n)));
  return { car: await buildCar([block.cid], [block]), root: block.cid.toString(), bytes: block.bytes };
}
const absentCid = async () => CID.createV1(raw.code, await sha256.digest(randomBytes(32))).toString();
/** a CID nobody stored, shaped like a folder's (dag-pb, CIDv1) */
const absentFolderCid = async () => CID.createV1(dagPb.code, await sha256.digest(randomBytes(32))).toString();
const stored = (cid: string) =>
  storage().node.getBlock!(parseCid(cid).cid).then(
    () => true,
    () => false,
  );
const spoolEmpty = () => readdirSync(path.join(t.dataDir, 'upload-spool')).length === 0;
const usage = (token: string) => api.get('/ipfs/usage', { token });
const pinsOf = (userId: string) => t.app.svc.db.select().from(pins).where(eq(pins.userId, userId));

/** what an answer says, with the CID in it made neutral and the per-request headers left out */
function shape(res: ApiResponse, cid: string) {
  const headers = [...(res.headers as unknown as Iterable<[string, string]>)]
    .filter(([k]) => !/^(date|x-request-id)$/i.test(k))
    .map(([k, v]) => `${k}: ${v.replaceAll(cid, 'CID')}`)
    .sort();
  return { status: res.status, body: res.text.replaceAll(cid, 'CID'), headers };
}

describe('a private folder', () => {
  const files = [
    { path: 'docs/readme.txt', bytes: `read me ${hex(60)}` },
    { path: 'docs/deep/notes.txt', bytes: `notes ${hex(500)}` },
    { path: 'top.txt', bytes: `top ${hex(30)}` },
  ];

  it('is read and listed by its owner; to anyone else every path and listing is the 404 of an absent CID', async () => {
    const [owner, stranger] = [await memberUser(api), await memberUser(api)];
    const up = await uploadFolder(api, owner.token, files, 'query', { visibility: 'private' });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const cid = up.body.cid as string;
    const [row] = await pinsOf(owner.id);
    expect(row).toMatchObject({ cid, visibility: 'private', mimetype: 'inode/directory' });

    const own = await api.get(`/ipfs/file/${cid}/docs/readme.txt`, { token: owner.token });
    expect(own.status).toBe(200);
    expect(own.text).toBe(files[0]!.bytes);
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    const listing = await api.get(`/ipfs/ls/${cid}?path=docs`, { token: owner.token });
    expect(listing.status).toBe(200);
    expect(listing.body.entries.map((e: { name: string }) => e.name).sort()).toEqual(['deep', 'readme.txt']);
    expect(listing.headers.get('cache-control')).toBe('private, no-store');

    const absent = await absentFolderCid();
    const reads = [
      (c: string, token?: string) => api.get(`/ipfs/file/${c}/docs/readme.txt`, { token }),
      (c: string, token?: string) => api.get(`/ipfs/file/${c}/no/such/file.txt`, { token }),
      (c: string, token?: string) => api.get(`/ipfs/ls/${c}`, { token }),
      (c: string, token?: string) => api.get(`/ipfs/ls/${c}?path=docs`, { token }),
    ];
    for (const read of reads) {
      const missing = shape(await read(absent), absent);
      expect(missing.status).toBe(404);
      expect(shape(await read(cid), cid)).toEqual(missing);
      expect(shape(await read(cid, stranger.token), cid)).toEqual(missing);
    }
    // a conditional request with the path's ETag is no way around it: the 304 of any CID, no content
    const revalidate = (c: string) =>
      api.get(`/ipfs/file/${c}/docs/readme.txt`, {
        token: stranger.token,
        headers: { 'if-none-match': `"${c}/${encodeURIComponent('docs/readme.txt')}"` },
      });
    const conditional = await revalidate(cid);
    expect(conditional.status).toBe(304);
    expect(conditional.text).toBe('');
    expect(shape(conditional, cid)).toEqual(shape(await revalidate(absent), absent));
    // a malformed path is the same 400 for every CID, checked before who may read
    const bad = await api.get(`/ipfs/file/${cid}/docs//readme.txt`, { token: stranger.token });
    expect(bad.status).toBe(400);
    expect(shape(bad, cid)).toEqual(shape(await api.get(`/ipfs/file/${absent}/docs//readme.txt`), absent));
    // a private one-block file (a raw CID) asked for with a path: the 400 of any raw CID, absent or not
    const single = (await uploadBytes(api, owner.token, `single ${hex(20)}`, 's.txt', 'text/plain')).body
      .cid as string;
    const hidden = await api.request(
      'PATCH',
      `/ipfs/pin/${single}`,
      { visibility: 'private' },
      {
        token: owner.token,
      },
    );
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(200);
    const rawAbsent = await absentCid();
    for (const at of [(c: string) => `/ipfs/file/${c}/x.txt`, (c: string) => `/ipfs/ls/${c}`]) {
      const other = shape(await api.get(at(rawAbsent), { token: stranger.token }), rawAbsent);
      expect(other.status).toBe(400);
      expect(shape(await api.get(at(single), { token: stranger.token }), single)).toEqual(other);
    }

    // its blocks, the files' leaves included, are not given to peers; a public folder's are
    const privacy = storage().node.privacy!;
    expect(privacy.refuses(parseCid(cid).cid)).toBe(true);
    for (const f of up.body.files as { cid: string }[])
      expect(privacy.refuses(parseCid(f.cid).cid)).toBe(true);
    // nor read by their own CIDs over HTTP (they have no record of their own): the 404 of an absent file
    const absentFile = await absentCid();
    const missing = shape(await api.get(`/ipfs/file/${absentFile}`, { token: stranger.token }), absentFile);
    expect(missing.status).toBe(404);
    for (const f of up.body.files as { cid: string }[])
      expect(shape(await api.get(`/ipfs/file/${f.cid}`, { token: stranger.token }), f.cid)).toEqual(missing);
    const open = await uploadFolder(api, owner.token, [{ path: 'open.txt', bytes: `open ${hex(40)}` }]);
    expect(open.status).toBe(201);
    expect(privacy.refuses(parseCid(open.body.cid).cid)).toBe(false);
    const openRead = await api.get(`/ipfs/file/${open.body.cid}/open.txt`);
    expect(openRead.status).toBe(200);
    expect(openRead.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('concurrent reads: every stranger read of a path is the 404, every owner read succeeds', async () => {
    const [owner, stranger] = [await memberUser(api), await memberUser(api)];
    const up = await uploadFolder(api, owner.token, files, 'field', { visibility: 'private' });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const cid = up.body.cid as string;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.get(`/ipfs/file/${cid}/${files[i % files.length]!.path}`, {
          token: i % 2 ? owner.token : stranger.token,
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 ? 200 : 404)));
  });
});

describe('a CAR with visibility in the query', () => {
  it('imports private roots: 404 to others, readable by the owner, held from peers; a bad value stores nothing', async () => {
    const [owner, stranger] = [await memberUser(api), await memberUser(api)];
    const { car, root, bytes } = await textCar(400);
    const ok = await postCar(t.url, owner.token, car, undefined, '?visibility=private');
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect((await pinsOf(owner.id)).map((r) => [r.cid, r.visibility, r.storedBytes])).toEqual([
      [root, 'private', bytes.length],
    ]);
    const absent = await absentCid();
    const missing = shape(await api.get(`/ipfs/file/${absent}`), absent);
    expect(shape(await api.get(`/ipfs/file/${root}`, { token: stranger.token }), root)).toEqual(missing);
    const own = await api.get(`/ipfs/file/${root}`, { token: owner.token });
    expect(own.status).toBe(200);
    expect(own.text).toBe(new TextDecoder().decode(bytes));
    expect(storage().node.privacy!.refuses(parseCid(root).cid)).toBe(true);

    const other = await textCar(300);
    const bad = await postCar(t.url, owner.token, other.car, undefined, '?visibility=secret');
    expect(bad.status).toBe(400);
    expect(bad.body.reason).toBe('VALIDATION_FAILED');
    expect(await stored(other.root)).toBe(false);
    expect(await pinsOf(owner.id)).toHaveLength(1);
  });
});

describe('quotas', () => {
  it('a folder over what is left is refused 413 QUOTA_EXCEEDED: nothing stored, pinned or counted', async () => {
    const user = await memberUser(api);
    expect((await uploadBytes(api, user.token, hex(15_000), 'first.txt', 'text/plain')).status).toBe(201);
    const files = [
      { path: 'a.txt', bytes: hex(3000) },
      { path: 'b/c.txt', bytes: hex(3000) },
    ];
    const over = await uploadFolder(api, user.token, files);
    expect(over.status, JSON.stringify(over.body)).toBe(413);
    expect(over.body).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      reason: 'QUOTA_EXCEEDED',
      usedBytes: 15_000,
      limitBytes: QUOTA,
    });
    expect((await usage(user.token)).body).toMatchObject({ usedBytes: 15_000, pins: 1 });
    expect(await pinsOf(user.id)).toHaveLength(1);
    for (const f of files)
      expect(await stored((await rawBlock(Buffer.from(f.bytes))).cid.toString())).toBe(false);
    expect(spoolEmpty()).toBe(true);

    // what fits is stored, and its record counts the files' bytes
    const fits = await uploadFolder(api, user.token, [
      { path: 'a.txt', bytes: hex(2000) },
      { path: 'b/c.txt', bytes: hex(3000) },
    ]);
    expect(fits.status, JSON.stringify(fits.body)).toBe(201);
    expect((await usage(user.token)).body).toMatchObject({ usedBytes: QUOTA, pins: 2 });
    const folder = (await pinsOf(user.id)).find((r) => r.cid === fits.body.cid);
    expect(folder).toMatchObject({ size: 5000, storedBytes: 5000, filename: null });
  });

  it('a CAR whose roots do not fit is refused 413 QUOTA_EXCEEDED: nothing stored, pinned or counted', async () => {
    const user = await memberUser(api);
    expect((await uploadBytes(api, user.token, hex(15_000), 'first.txt', 'text/plain')).status).toBe(201);
    const over = await textCar(6000);
    const res = await postCar(t.url, user.token, over.car);
    expect(res.status, JSON.stringify(res.body)).toBe(413);
    expect(res.body).toMatchObject({ reason: 'QUOTA_EXCEEDED', usedBytes: 15_000, limitBytes: QUOTA });
    expect(await stored(over.root)).toBe(false);
    expect(await pinsOf(user.id)).toHaveLength(1);
    expect((await usage(user.token)).body.usedBytes).toBe(15_000);
    expect(spoolEmpty()).toBe(true);

    const fits = await textCar(5000);
    expect((await postCar(t.url, user.token, fits.car)).status).toBe(201);
    expect((await usage(user.token)).body).toMatchObject({ usedBytes: QUOTA, pins: 2 });
    // at the quota a CAR is refused before its body is read
    const more = await textCar(10);
    const full = await postCar(t.url, user.token, more.car);
    expect(full.status).toBe(413);
    expect(full.body).toMatchObject({ reason: 'QUOTA_EXCEEDED', usedBytes: QUOTA });
    expect(await stored(more.root)).toBe(false);
  });

  it('10 folders and 10 CARs at once whose sizes together pass the quota: exactly those that fit are stored', async () => {
    const user = await memberUser(api);
    const size = 3000;
    const folders = Array.from({ length: 10 }, () =>
      uploadFolder(api, user.token, [
        { path: 'pack/x.txt', bytes: hex(size / 2) },
        { path: 'pack/y/z.txt', bytes: hex(size / 2) },
      ]),
    );
    const cars = Array.from({ length: 10 }, async () =>
      postCar(t.url, user.token, (await textCar(size)).car),
    );
    const answers = await Promise.all([...folders, ...cars]);
    const statuses = answers.map((a) => a.status);
    const storedCount = statuses.filter((s) => s === 201).length;
    const refused = answers.filter((a) => a.status === 413 && a.body.reason === 'QUOTA_EXCEEDED').length;
    expect(storedCount + refused, JSON.stringify(answers.map((a) => a.body))).toBe(20);
    expect(storedCount).toBe(Math.floor(QUOTA / size));
    const u = (await usage(user.token)).body;
    expect(u).toMatchObject({ usedBytes: storedCount * size, pins: storedCount });
    const rows = await pinsOf(user.id);
    expect(rows).toHaveLength(storedCount);
    // a folder's record is named after the one folder its paths are in; a CAR's root has no name
    for (const r of rows) expect(r.filename).toBe(r.mimetype === 'inode/directory' ? 'pack' : null);
    expect(spoolEmpty()).toBe(true);
  });
});

describe('garbage collection', () => {
  it('a GC run between a folder’s or a CAR’s import and its pin removes none of its blocks', async () => {
    const user = await memberUser(api);
    const node = storage().node;
    // something for the runs to remove, so they are seen to sweep: content imported into the node and
    // never pinned or recorded, so nothing else reads it meanwhile (an upload then an unpin was once kept:
    // the unpin's visibility bookkeeping, which reads the blocks, overlapped the run on a busy machine)
    await node.add(
      (async function* () {
        yield new TextEncoder().encode(`garbage ${hex(200)}`);
      })(),
    );
    const { addDirectory, importCar } = node;
    const reports: { blocksRemoved: number }[] = [];
    const collect = async () => reports.push(await node.collectGarbage!({ roots: [] }));
    node.addDirectory = async (...args) => {
      const dir = await addDirectory(...args);
      await collect();
      return dir;
    };
    node.importCar = async (...args) => {
      await importCar(...args);
      await collect();
    };
    try {
      const files = [
        { path: 'one.txt', bytes: `one ${hex(900)}` },
        { path: 'sub/two.txt', bytes: `two ${hex(1200)}` },
      ];
      const folder = await uploadFolder(api, user.token, files);
      expect(folder.status, JSON.stringify(folder.body)).toBe(201);
      const car = await textCar(700);
      const imported = await postCar(t.url, user.token, car.car);
      expect(imported.status, JSON.stringify(imported.body)).toBe(201);

      expect(reports).toHaveLength(2);
      expect(reports[0]!.blocksRemoved).toBeGreaterThanOrEqual(1);
      for (const f of files) {
        const back = await api.get(`/ipfs/file/${folder.body.cid}/${f.path}`);
        expect(back.status).toBe(200);
        expect(back.text).toBe(f.bytes);
      }
      const back = await api.get(`/ipfs/file/${car.root}`);
      expect(back.status).toBe(200);
      expect(back.text).toBe(new TextDecoder().decode(car.bytes));
    } finally {
      node.addDirectory = addDirectory;
      node.importCar = importCar;
    }
  });
});
