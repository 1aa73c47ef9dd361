import { mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '@plenum/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepStaleParts } from '../src/routes/users/stale-parts';
import { startTestApp, type TestApp } from './support/app';
import { scannedClient } from './support/body-scan';
import { activeUser, type TestUser } from './support/factories';
import type { ApiClient } from './support/http';
import { HTML_AS_PNG, SVG, tinyGif, tinyJpeg, tinyPng } from './support/images';

const ADMIN = 'avatar-admin@example.org';
let t: TestApp;
let api: ApiClient;
let scan: ReturnType<typeof scannedClient>['scanner'];
let admin: TestUser;
let avatars: string;
const warnings: string[] = [];

beforeAll(async () => {
  t = await startTestApp({
    env: { ADMIN_EMAILS: ADMIN },
    // record the warnings core writes through svc.log, to see the failed delete being logged
    logger: (base) => {
      const log = Object.create(base) as Logger;
      log.warn = ((obj: unknown, msg?: string) => {
        warnings.push(typeof obj === 'string' ? obj : (msg ?? ''));
        return base.warn(obj as object, msg);
      }) as Logger['warn'];
      return log;
    },
  });
  ({ api, scanner: scan } = scannedClient(t.url));
  admin = await activeUser(api, { email: ADMIN });
  avatars = path.join(t.dataDir, 'uploads', 'avatars');
});
afterAll(() => t.close());

function upload(
  userId: string,
  bytes: Buffer,
  opts: { token?: string; name?: string; type?: string; field?: string } = {},
) {
  const form = new FormData();
  form.append(
    opts.field ?? 'avatar',
    new Blob([new Uint8Array(bytes)], { type: opts.type ?? 'image/png' }),
    opts.name ?? 'avatar.png',
  );
  return api.request('PUT', `/users/${userId}/avatar`, undefined, { raw: form, token: opts.token });
}

const filesOf = (userId: string) => readdirSync(avatars).filter((f) => f.startsWith(userId));

describe('PUT /users/{id}/avatar', () => {
  it('accepts a real PNG, JPEG and GIF and serves each back with its type, nosniff and a closed CSP', async () => {
    const u = await activeUser(api);
    for (const [bytes, mime, name] of [
      [tinyPng(), 'image/png', 'me.png'],
      [tinyJpeg(), 'image/jpeg', 'me.jpg'],
      [tinyGif(), 'image/gif', 'me.gif'],
    ] as const) {
      // the declared type and name are ignored: only the bytes count
      const res = await upload(u.id, bytes, { token: u.token, name, type: 'application/octet-stream' });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ avatarUrl: `/users/${u.id}/avatar` });
      const got = await fetch(`${t.url}/users/${u.id}/avatar`);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe(mime);
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
      expect(filesOf(u.id)).toHaveLength(1); // the previous picture is gone
    }
    const me = await api.get(`/users/${u.id}`, { token: u.token });
    expect(me.body.avatarUrl).toBe(`/users/${u.id}/avatar`);
    expect((await api.get(`/users/${u.id}/profile`)).body.avatarUrl).toBe(`/users/${u.id}/avatar`);
  });

  it('refuses HTML renamed .png, an SVG and an empty file with 400 naming the rule, storing nothing', async () => {
    const u = await activeUser(api);
    for (const [bytes, type, name] of [
      [HTML_AS_PNG, 'image/png', 'cat.png'],
      [SVG, 'image/svg+xml', 'logo.svg'],
      [Buffer.from('just text'), 'image/gif', 'a.gif'],
    ] as const) {
      const res = await upload(u.id, bytes, { token: u.token, type, name });
      expect(res.status, name).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', reason: 'AVATAR_TYPE_NOT_ALLOWED' });
      expect(res.body.message).toMatch(/image\/png/);
    }
    expect((await upload(u.id, Buffer.alloc(0), { token: u.token })).body.reason).toBe('AVATAR_EMPTY');
    expect(filesOf(u.id)).toEqual([]);
    expect(readdirSync(avatars).filter((f) => f.endsWith('.part'))).toEqual([]);
    expect((await api.get(`/users/${u.id}`, { token: u.token })).body.avatarUrl).toBeNull();
  });

  it('refuses a 6 MB picture with 400, whether it declares its length or streams it chunked', async () => {
    const u = await activeUser(api);
    const big = Buffer.concat([tinyPng(), Buffer.alloc(6 * 1024 * 1024)]);
    const declared = await upload(u.id, big, { token: u.token });
    expect(declared.status).toBe(400);
    expect(declared.body.reason).toBe('AVATAR_TOO_LARGE');

    // no Content-Length: the cut-off happens while the bytes arrive
    const boundary = 'plenum-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunks = [head, tinyPng(), ...Array.from({ length: 96 }, () => Buffer.alloc(64 * 1024, 7)), tail];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const res = await fetch(`${t.url}/users/${u.id}/avatar`, {
      method: 'PUT',
      body,
      duplex: 'half',
      headers: {
        authorization: `Bearer ${u.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    } as RequestInit);
    expect(res.status).toBe(400);
    expect((await res.json()).reason).toBe('AVATAR_TOO_LARGE');
    expect(filesOf(u.id)).toEqual([]);
    expect(readdirSync(avatars).filter((f) => f.endsWith('.part'))).toEqual([]);

    // exactly the limit is fine
    const exact = Buffer.concat([tinyPng(), Buffer.alloc(5_242_880 - tinyPng().length)]);
    expect((await upload(u.id, exact, { token: u.token })).status).toBe(200);
  });

  it('still succeeds when the old file cannot be deleted (logged, not fatal)', async () => {
    const u = await activeUser(api);
    expect((await upload(u.id, tinyPng(), { token: u.token })).status).toBe(200);
    const [old] = filesOf(u.id);
    // a non-empty directory where the old file was: unlink fails even for root
    const oldPath = path.join(avatars, old!);
    rmSync(oldPath);
    mkdirSync(oldPath);
    writeFileSync(path.join(oldPath, 'keep'), 'x');
    const res = await upload(u.id, tinyGif(), { token: u.token, name: 'new.gif' });
    expect(res.status, res.text).toBe(200);
    const got = await fetch(`${t.url}/users/${u.id}/avatar`);
    expect(got.headers.get('content-type')).toBe('image/gif');
    expect(readFileSync(path.join(oldPath, 'keep'), 'utf8')).toBe('x'); // the undeletable one is still there
    expect(filesOf(u.id)).toHaveLength(2);
    expect(warnings).toContain('could not delete the previous avatar file');
  });

  it('keeps exactly one file when one user uploads several pictures at once', async () => {
    const u = await activeUser(api);
    const results = await Promise.all(
      [tinyPng([1, 2, 3]), tinyPng([4, 5, 6]), tinyGif(), tinyJpeg()].map((b) =>
        upload(u.id, b, { token: u.token }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(filesOf(u.id)).toHaveLength(1);
    expect((await fetch(`${t.url}/users/${u.id}/avatar`)).status).toBe(200);
  });

  it('is for the signed-in owner only, with clear 4xx for every bad request', async () => {
    const [u, other] = await Promise.all([activeUser(api), activeUser(api)]);
    expect((await upload(u.id, tinyPng())).status).toBe(401);
    const foreign = await upload(u.id, tinyPng(), { token: other.token });
    expect(foreign.status).toBe(403);
    expect((await upload(u.id, tinyPng(), { token: admin.token })).status).toBe(403);
    expect((await upload('00000000-0000-4000-8000-000000000000', tinyPng(), { token: u.token })).status).toBe(
      404,
    );
    expect((await upload('nope', tinyPng(), { token: u.token })).status).toBe(400);
    const wrongField = await upload(u.id, tinyPng(), { token: u.token, field: 'picture' });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.reason).toBe('AVATAR_MISSING');
    const json = await api.put(`/users/${u.id}/avatar`, { avatar: 'data' }, { token: u.token });
    expect(json.status).toBe(400);
    expect(json.body.reason).toBe('MULTIPART_REQUIRED');
    const broken = await api.request('PUT', `/users/${u.id}/avatar`, undefined, {
      token: u.token,
      raw: 'garbage',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(broken.status).toBe(400);
    expect(filesOf(u.id)).toEqual([]);
  });
});

describe('GET /users/{id}/avatar', () => {
  it('follows the profile’s visibility, answers 404 without a picture and 304 when unchanged', async () => {
    const [u, other] = await Promise.all([activeUser(api), activeUser(api)]);
    expect((await api.get(`/users/${u.id}/avatar`)).status).toBe(404);
    await upload(u.id, tinyPng(), { token: u.token });
    const first = await fetch(`${t.url}/users/${u.id}/avatar`);
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect(
      (await fetch(`${t.url}/users/${u.id}/avatar`, { headers: { 'if-none-match': etag } })).status,
    ).toBe(304);

    await api.put(
      `/users/${u.id}/preferences`,
      { privacy: { profileVisibility: 'private' } },
      { token: u.token },
    );
    expect((await api.get(`/users/${u.id}/avatar`)).status).toBe(403);
    expect((await api.get(`/users/${u.id}/avatar`, { token: other.token })).status).toBe(403);
    expect((await api.get(`/users/${u.id}/avatar`, { token: u.token })).status).toBe(200);
    expect((await api.get(`/users/${u.id}/avatar`, { token: admin.token })).status).toBe(200);

    expect((await api.delete(`/users/${u.id}`, { token: u.token })).status).toBe(204);
    expect((await api.get(`/users/${u.id}/avatar`, { token: admin.token })).status).toBe(404);
  });

  it('is listed in the OpenAPI document with a multipart body and binary responses', async () => {
    const doc = (await api.get('/api/docs-json')).body;
    const p = doc.paths['/users/{id}/avatar'];
    expect(p.put.requestBody.content['multipart/form-data'].schema).toBeTruthy();
    expect(Object.keys(p.get.responses['200'].content)).toEqual(['image/png', 'image/jpeg', 'image/gif']);
    for (const path of [
      '/users/{id}',
      '/users/{id}/profile',
      '/users/{id}/preferences',
      '/admin/users',
      '/admin/stats',
      '/admin/audit-log',
      '/admin/users/{id}/suspend',
      '/admin/users/{id}/reactivate',
    ])
      expect(Object.keys(doc.paths)).toContain(path);
  });
});

describe('partial uploads left by a crash', () => {
  it('are swept at start when over an hour old; fresh ones (another instance uploading) stay', async () => {
    const stale = path.join(avatars, '.crashed.png.part');
    const fresh = path.join(avatars, '.in-flight.png.part');
    writeFileSync(stale, 'x');
    writeFileSync(fresh, 'y');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(stale, twoHoursAgo, twoHoursAgo);
    await sweepStaleParts(avatars, Date.now(), t.app.svc.log);
    const left = readdirSync(avatars).filter((f) => f.endsWith('.part'));
    expect(left).toEqual(['.in-flight.png.part']);
    rmSync(fresh);
  });
});

describe('ENABLE_PROFILE_PICTURES=false', () => {
  it('refuses uploads (400 FEATURE_DISABLED) and serves no pictures', async () => {
    const t2 = await startTestApp({ env: { ENABLE_PROFILE_PICTURES: 'false' } });
    try {
      const { api: api2 } = scannedClient(t2.url);
      const u = await activeUser(api2);
      const form = new FormData();
      form.append('avatar', new Blob([new Uint8Array(tinyPng())]), 'a.png');
      const res = await api2.request('PUT', `/users/${u.id}/avatar`, undefined, {
        raw: form,
        token: u.token,
      });
      expect(res.status).toBe(400);
      expect(res.body.reason).toBe('FEATURE_DISABLED');
      expect((await api2.get(`/users/${u.id}/avatar`, { token: u.token })).status).toBe(404);
    } finally {
      await t2.close();
    }
  });
});

it('no response of this file leaked a secret or another user’s email', () => {
  expect(scan.violations()).toEqual([]);
});
