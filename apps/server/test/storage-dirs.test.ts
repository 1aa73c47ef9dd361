import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { parseCid, type StorageRuntime } from '@plenum/core';
import { pins } from '@plenum/db';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';
import { PNG_1x1, referenceFolderCid, uploadFolder } from './support/storage';

/** Folder uploads, reads by path, folder listings and folder pins (docs/storage.md, "Folders and several files"). */
let t: TestApp;
let api: ApiClient;
const MAX = 3 * 1_048_576;
const storage = () => t.app.svc.storage as StorageRuntime;
const hex = (n: number) =>
  randomBytes(Math.ceil(n / 2))
    .toString('hex')
    .slice(0, n);
const rawCid = async (bytes: Uint8Array) => CID.createV1(raw.code, await sha256.digest(bytes)).toString();
const stored = (cid: string) =>
  storage().node.getBlock!(parseCid(cid).cid).then(
    () => true,
    () => false,
  );
const spoolEmpty = () => readdirSync(path.join(t.dataDir, 'upload-spool')).length === 0;

beforeAll(async () => {
  t = await startTestApp({ env: { MAX_FILE_SIZE: String(MAX) } });
  api = apiClient(t.url);
});
afterAll(() => t?.close());

/** a raw GET, so that `..` and `%2F` reach the server as written */
function rawGet(urlPath: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const { hostname, port } = new URL(t.url);
    const req = request({ hostname, port, path: urlPath, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('POST /ipfs/upload with several files (wrapWithDirectory)', () => {
  const files = [
    { path: 'docs/readme.txt', bytes: `read me ${hex(40)}` },
    { path: 'docs/deep/er/notes.txt', bytes: `notes ${hex(3000)}` },
    // more than one leaf: 1 MiB raw leaves and a parent node
    { path: 'big.txt', bytes: hex(1_048_576 + 5000) },
    { path: 'images/dot.png', bytes: PNG_1x1 },
  ];

  it('builds the folder the reference importer builds, and every file reads back by path, byte for byte', async () => {
    const user = await memberUser(api);
    const up = await uploadFolder(api, user.token, files, 'query');
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const ref = await referenceFolderCid(files);
    expect(up.body.cid).toBe(ref.root);
    expect(up.body.size).toBe(files.reduce((n, f) => n + Buffer.byteLength(f.bytes), 0));
    expect(up.body.files).toEqual(
      files.map((f) => ({
        path: f.path,
        cid: ref.files.get(f.path),
        size: Buffer.byteLength(f.bytes),
        mimetype: f.path.endsWith('.png') ? 'image/png' : 'text/plain',
      })),
    );
    for (const f of files) {
      const res = await fetch(`${t.url}/ipfs/file/${up.body.cid}/${f.path}`);
      expect(res.status, f.path).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(f.bytes)), f.path).toBe(true);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain('sandbox');
      expect(res.headers.get('content-disposition')).toBe(
        `inline; filename="${ref.files.get(f.path)}.${f.path.endsWith('.png') ? 'png' : 'txt'}"`,
      );
      const head = await fetch(`${t.url}/ipfs/file/${up.body.cid}/${f.path}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe(res.headers.get('content-type'));
      const etag = res.headers.get('etag')!;
      const again = await fetch(`${t.url}/ipfs/file/${up.body.cid}/${f.path}`, {
        headers: { 'if-none-match': etag },
      });
      expect(again.status).toBe(304);
    }
    // the pin record is the folder's
    const [row] = await t.app.svc.db.select().from(pins);
    expect(row).toMatchObject({ cid: up.body.cid, status: 'pinned', mimetype: 'inode/directory' });
    expect(row!.size).toBe(up.body.size);
    expect(await storage().node.isPinned(parseCid(up.body.cid).cid)).toBe(true);
    await storage().idle();
    const [verified] = await t.app.svc.db.select().from(pins);
    expect(verified!.verifiedAt).not.toBeNull();

    // listings
    const top = await api.get(`/ipfs/ls/${up.body.cid}`);
    expect(top.status).toBe(200);
    expect(top.body.entries.map((e: { name: string; type: string }) => [e.name, e.type]).sort()).toEqual([
      ['big.txt', 'file'],
      ['docs', 'directory'],
      ['images', 'directory'],
    ]);
    expect(top.body.entries.find((e: { name: string }) => e.name === 'big.txt').size).toBe(1_048_576 + 5000);
    const deep = await api.get(`/ipfs/ls/${up.body.cid}?path=docs/deep`);
    expect(deep.body).toMatchObject({ path: 'docs/deep', entries: [{ name: 'er', type: 'directory' }] });
    expect((await api.get(`/ipfs/ls/${up.body.cid}?path=big.txt`)).body.reason).toBe('NOT_A_DIRECTORY');
    expect((await api.get(`/ipfs/ls/${ref.files.get('big.txt')}`)).body.reason).toBe('NOT_A_DIRECTORY');

    // a folder is no file; a missing name is a 404; nothing escapes the folder
    const folder = await fetch(`${t.url}/ipfs/file/${up.body.cid}/docs`);
    expect([folder.status, (await folder.json()).reason]).toEqual([400, 'NOT_A_FILE']);
    const whole = await fetch(`${t.url}/ipfs/file/${up.body.cid}`);
    expect([whole.status, (await whole.json()).reason]).toEqual([400, 'NOT_A_FILE']);
    const missing = await fetch(`${t.url}/ipfs/file/${up.body.cid}/docs/nope.txt`);
    expect([missing.status, (await missing.json()).reason]).toEqual([404, 'PATH_NOT_FOUND']);
    const through = await fetch(`${t.url}/ipfs/file/${up.body.cid}/big.txt/x`);
    expect(through.status).toBe(400);
    for (const p of ['docs/../big.txt', 'docs/%2e%2e/big.txt', 'docs/./readme.txt', 'docs//readme.txt']) {
      const res = await rawGet(`/ipfs/file/${up.body.cid}/${p}`);
      expect([res.status, JSON.parse(res.body).reason], p).toEqual([400, 'INVALID_PATH']);
    }
  });

  it('takes wrapWithDirectory as a form field too; one file wrapped is a folder of one', async () => {
    const user = await memberUser(api);
    const two = [
      { path: 'a.txt', bytes: `field a ${hex(10)}` },
      { path: 'b/c.txt', bytes: `field c ${hex(10)}` },
    ];
    const up = await uploadFolder(api, user.token, two, 'field');
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body.cid).toBe((await referenceFolderCid(two)).root);
    const one = [{ path: 'only.txt', bytes: `only ${hex(10)}` }];
    const single = await uploadFolder(api, user.token, one, 'query');
    expect(single.body.cid).toBe((await referenceFolderCid(one)).root);
    expect(single.body.files).toHaveLength(1);
  });

  it('refuses several files without wrapWithDirectory, and bad or repeated names, storing nothing', async () => {
    const user = await memberUser(api);
    const before = (await t.app.svc.db.select().from(pins)).length;
    const good = `good ${hex(100)}`;
    const cases: [{ path: string; bytes: string }[], 'query' | 'none', string][] = [
      [
        [
          { path: 'a.txt', bytes: good },
          { path: 'b.txt', bytes: 'b' },
        ],
        'none',
        'WRAP_WITH_DIRECTORY_REQUIRED',
      ],
      [[{ path: '../up.txt', bytes: good }], 'query', 'INVALID_PATH'],
      [[{ path: '/abs.txt', bytes: good }], 'query', 'INVALID_PATH'],
      [[{ path: 'a//b.txt', bytes: good }], 'query', 'INVALID_PATH'],
      [[{ path: 'a/./b.txt', bytes: good }], 'query', 'INVALID_PATH'],
      [[{ path: 'a\\b.txt', bytes: good }], 'query', 'INVALID_PATH'],
      [[{ path: 'dir/', bytes: good }], 'query', 'INVALID_PATH'],
      [
        [
          { path: 'same.txt', bytes: good },
          { path: 'same.txt', bytes: 'other' },
        ],
        'query',
        'DUPLICATE_PATH',
      ],
      [
        [
          { path: 'x', bytes: good },
          { path: 'x/y.txt', bytes: 'other' },
        ],
        'query',
        'DUPLICATE_PATH',
      ],
    ];
    for (const [list, wrap, reason] of cases) {
      const res = await uploadFolder(api, user.token, list, wrap);
      expect([res.status, res.body.reason], JSON.stringify(list.map((f) => f.path))).toEqual([400, reason]);
    }
    expect(await stored(await rawCid(Buffer.from(good)))).toBe(false);
    expect(await t.app.svc.db.select().from(pins)).toHaveLength(before);
    expect(spoolEmpty()).toBe(true);
  });

  it('one refused file refuses the whole upload: no block of the others stays, no record', async () => {
    const user = await memberUser(api);
    const before = (await t.app.svc.db.select().from(pins)).length;
    const a = `first ${hex(2000)}`;
    const b = `second ${hex(2000)}`;
    const html = '<!DOCTYPE html><html><script>alert(1)</script></html>';
    const typeRes = await uploadFolder(api, user.token, [
      { path: 'a.txt', bytes: a },
      { path: 'x/evil.txt', bytes: html },
      { path: 'b.txt', bytes: b },
    ]);
    expect([typeRes.status, typeRes.body.reason]).toEqual([415, 'FILE_TYPE_NOT_ALLOWED']);
    // each file within MAX_FILE_SIZE, together over it: 413
    const big = hex(MAX / 2 + 10);
    const sizeRes = await uploadFolder(api, user.token, [
      { path: 'a.txt', bytes: a },
      { path: 'one.txt', bytes: big },
      { path: 'two.txt', bytes: `${big}2` },
    ]);
    expect([sizeRes.status, sizeRes.body.reason]).toEqual([413, 'FILE_TOO_LARGE']);
    const empty = await uploadFolder(api, user.token, [
      { path: 'b.txt', bytes: b },
      { path: 'empty.txt', bytes: '' },
    ]);
    expect([empty.status, empty.body.reason]).toEqual([400, 'EMPTY_FILE']);
    for (const bytes of [a, b, big.slice(0, 1_048_576)])
      expect(await stored(await rawCid(Buffer.from(bytes)))).toBe(false);
    expect(await t.app.svc.db.select().from(pins)).toHaveLength(before);
    expect(spoolEmpty()).toBe(true);
  });

  it('a folder CID pinned by CID ends pinned for its new owner', async () => {
    const owner = await memberUser(api);
    const up = await uploadFolder(api, owner.token, [{ path: 'p/q.txt', bytes: `pinned ${hex(20)}` }]);
    const other = await memberUser(api);
    const pin = await api.post(`/ipfs/pin/${up.body.cid}`, undefined, { token: other.token });
    expect(pin.status).toBe(201);
    await storage().idle();
    const mine = await api.get('/pins?status=pinned,failed', { token: other.token });
    expect(
      mine.body.results.map((r: { status: string; pin: { cid: string } }) => [r.pin.cid, r.status]),
    ).toEqual([[up.body.cid, 'pinned']]);
  });

  it('concurrent folder uploads: the good ones stored and recorded, the bad ones refused, nothing of them left', async () => {
    const user = await memberUser(api);
    const n = TEST_DB === 'postgres' ? 12 : 4;
    const before = (await t.app.svc.db.select().from(pins)).length;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        uploadFolder(api, user.token, [
          { path: `f${i}/a.txt`, bytes: `concurrent ${i} ${hex(500)}` },
          // every other upload repeats a path
          { path: i % 2 ? `f${i}/a.txt` : `f${i}/b.txt`, bytes: `b ${i}` },
        ]),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(n / 2);
    expect(results.filter((r) => r.body.reason === 'DUPLICATE_PATH')).toHaveLength(n / 2);
    const rows = await t.app.svc.db.select().from(pins);
    expect(rows).toHaveLength(before + n / 2);
    expect(new Set(rows.map((r) => r.cid))).toEqual(
      new Set([...rows.map((r) => r.cid), ...results.filter((r) => r.status === 201).map((r) => r.body.cid)]),
    );
    expect(spoolEmpty()).toBe(true);
  });
});
