import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { AppRouter } from '@plenum/api';
import type { StorageRuntime } from '@plenum/core';
import { auditLog, pins } from '@plenum/db';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { and, eq } from 'drizzle-orm';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { activeUser, memberUser, type TestUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';
import { uploadBytes } from './support/storage';

/**
 * Storage quotas (docs/storage.md, "Quotas"): usage over what a user owns, uploads refused before they are
 * stored (413), pins by CID refused at the quota or the pending-pins limit (409), a pin whose DAG does not
 * fit ends failed, exact counts under concurrency, and the admin's quota per user.
 */
const QUOTA = 10_000;
const MAX_PENDING = 3;
const ADMIN = 'quota-admin@example.org';
let t: TestApp;
let api: ApiClient;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp({
    env: {
      STORAGE_QUOTA_BYTES: String(QUOTA),
      STORAGE_MAX_PENDING_PINS: String(MAX_PENDING),
      // pins of absent content stay pending for the length of a test
      IPFS_TIMEOUT: '30000',
      ADMIN_EMAILS: ADMIN,
    },
  });
  api = apiClient(t.url);
  admin = await activeUser(api, { email: ADMIN });
});
afterAll(() => t?.close());

const storage = () => t.app.svc.storage as StorageRuntime;
const usage = (token: string) => api.get('/ipfs/usage', { token });
const text = (n: number, fill = 'a') => `${randomBytes(8).toString('hex')}${fill.repeat(n - 16)}`;
const absentCid = async () => CID.createV1(raw.code, await sha256.digest(randomBytes(32))).toString();
const trpcAs = (token: string) =>
  createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${t.url}/trpc`, headers: { authorization: `Bearer ${token}` } })],
  });
/** waits until the pin of `cid` by `userId` has left `pinning` (other tests' pins of absent content stay pending) */
async function settled(cid: string, userId: string) {
  for (;;) {
    const [row] = await t.app.svc.db
      .select()
      .from(pins)
      .where(and(eq(pins.cid, cid), eq(pins.userId, userId)));
    if (row && row.status !== 'pinning') return row;
    await new Promise((r) => setTimeout(r, 50));
  }
}
const setQuota = (id: string, limitBytes: number | null, token = admin.token) =>
  api.put(`/admin/users/${id}/storage-quota`, { limitBytes }, { token });

/** a multipart upload that declares `declared` bytes and sends only its head; resolves on the answer */
function declaredUpload(token: string, declared: number) {
  return new Promise<{ status: number; body: any; sent: number }>((resolve, reject) => {
    const boundary = '----plenumquota';
    const req = request(new URL('/ipfs/upload', t.url), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(declared),
      },
    });
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`;
    let sent = 0;
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(body), sent });
      });
    });
    req.on('error', reject);
    req.write(head);
    req.write('a'.repeat(1000));
    sent = head.length + 1000;
  });
}

describe('GET /ipfs/usage', () => {
  it('answers the caller’s usage and limit, and needs a signed-in caller', async () => {
    const user = await memberUser(api);
    expect((await usage(user.token)).body).toEqual({
      usedBytes: 0,
      limitBytes: QUOTA,
      pins: 0,
      pendingPins: 0,
    });
    expect((await api.get('/ipfs/usage')).status).toBe(401);
    expect(await trpcAs(user.token).storage.usage.query()).toEqual({
      usedBytes: 0,
      limitBytes: QUOTA,
      pins: 0,
      pendingPins: 0,
    });
  });
});

describe('uploads against the quota', () => {
  it('counts uploads, refuses one that would pass the quota mid-stream (413, nothing kept) and frees on unpin', async () => {
    const user = await memberUser(api);
    const first = await uploadBytes(api, user.token, text(6000), 'a.txt', 'text/plain');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect((await usage(user.token)).body).toEqual({
      usedBytes: 6000,
      limitBytes: QUOTA,
      pins: 1,
      pendingPins: 0,
    });

    const over = await uploadBytes(api, user.token, text(5000), 'b.txt', 'text/plain');
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      reason: 'QUOTA_EXCEEDED',
      usedBytes: 6000,
      limitBytes: QUOTA,
    });
    expect((await usage(user.token)).body.usedBytes).toBe(6000);
    const rows = await t.app.svc.db.select().from(pins).where(eq(pins.userId, user.id));
    expect(rows.map((r) => r.cid)).toEqual([first.body.cid]);

    // exactly up to the limit is fine
    const fits = await uploadBytes(api, user.token, text(4000), 'c.txt', 'text/plain');
    expect(fits.status).toBe(201);
    expect((await usage(user.token)).body.usedBytes).toBe(QUOTA);
    // at the limit, one more byte is too many
    expect((await uploadBytes(api, user.token, 'x', 'd.txt', 'text/plain')).body.reason).toBe(
      'QUOTA_EXCEEDED',
    );

    const un = await api.delete(`/ipfs/unpin/${first.body.cid}`, { token: user.token });
    expect(un.status).toBe(200);
    expect((await usage(user.token)).body).toEqual({
      usedBytes: 4000,
      limitBytes: QUOTA,
      pins: 1,
      pendingPins: 0,
    });
  });

  it('refuses at once a declared Content-Length beyond what is left, before reading the body', async () => {
    const user = await memberUser(api);
    const answer = await declaredUpload(user.token, 5_000_000);
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ reason: 'QUOTA_EXCEEDED', usedBytes: 0, limitBytes: QUOTA });
    expect(answer.sent).toBeLessThan(QUOTA);
    expect((await usage(user.token)).body.usedBytes).toBe(0);
  });

  it('a CID pinned by two owners counts for both', async () => {
    const [alice, bob] = [await memberUser(api), await memberUser(api)];
    const content = text(3000);
    const a = await uploadBytes(api, alice.token, content, 'same.txt', 'text/plain');
    const b = await uploadBytes(api, bob.token, content, 'same.txt', 'text/plain');
    expect(b.body.cid).toBe(a.body.cid);
    expect((await usage(alice.token)).body.usedBytes).toBe(3000);
    expect((await usage(bob.token)).body.usedBytes).toBe(3000);
    // the same upload again by the same owner is one pin, counted once
    expect((await uploadBytes(api, bob.token, content, 'again.txt', 'text/plain')).status).toBe(201);
    expect((await usage(bob.token)).body).toMatchObject({ usedBytes: 3000, pins: 1 });
  });

  it('20 concurrent uploads whose sizes together pass the quota: exactly those that fit are stored', async () => {
    const user = await memberUser(api);
    const size = 700;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        uploadBytes(api, user.token, text(size, String.fromCharCode(97 + i)), `f${i}.txt`, 'text/plain'),
      ),
    );
    const statuses = answers.map((a) => a.status);
    const stored = statuses.filter((s) => s === 201).length;
    const refused = answers.filter((a) => a.status === 413 && a.body.reason === 'QUOTA_EXCEEDED').length;
    expect(stored + refused, JSON.stringify(statuses)).toBe(20);
    expect(stored).toBe(Math.floor(QUOTA / size));
    const u = (await usage(user.token)).body;
    expect(u).toEqual({ usedBytes: stored * size, limitBytes: QUOTA, pins: stored, pendingPins: 0 });
    expect(u.usedBytes).toBeLessThanOrEqual(QUOTA);
    // every refused upload released what it reserved: the rest of the quota is usable
    const rest = QUOTA - stored * size;
    if (rest > 0)
      expect((await uploadBytes(api, user.token, text(rest, 'z'), 'rest.txt', 'text/plain')).status).toBe(
        201,
      );
  });
});

describe('pins by CID against the quota', () => {
  it('refuses a new pin at the quota: 409 QUOTA_EXCEEDED on REST, tRPC and the Pinning Service API', async () => {
    const user = await memberUser(api);
    expect((await uploadBytes(api, user.token, text(QUOTA), 'full.txt', 'text/plain')).status).toBe(201);
    const cid = await absentCid();
    const rest = await api.post(`/ipfs/pin/${cid}`, undefined, { token: user.token });
    expect(rest.status).toBe(409);
    expect(rest.body).toMatchObject({
      code: 'CONFLICT',
      reason: 'QUOTA_EXCEEDED',
      usedBytes: QUOTA,
      limitBytes: QUOTA,
    });
    const viaTrpc = await trpcAs(user.token)
      .storage.pin.mutate({ cid })
      .catch((e: unknown) => e);
    expect(viaTrpc).toBeInstanceOf(TRPCClientError);
    expect((viaTrpc as TRPCClientError<AppRouter>).data).toMatchObject({
      code: 'CONFLICT',
      reason: 'QUOTA_EXCEEDED',
      usedBytes: QUOTA,
      limitBytes: QUOTA,
    });
    const psa = await api.post('/pins', { cid }, { token: user.token });
    expect(psa.status).toBe(409);
    expect(psa.body.error.reason).toBe('QUOTA_EXCEEDED');
    expect(typeof psa.body.error.details).toBe('string');
    expect((await usage(user.token)).body).toMatchObject({ usedBytes: QUOTA, pendingPins: 0 });
  });

  it('refuses pins beyond STORAGE_MAX_PENDING_PINS with 409 TOO_MANY_PENDING_PINS, exactly, when sent at once', async () => {
    const user = await memberUser(api);
    const cids = await Promise.all(Array.from({ length: 12 }, absentCid));
    const answers = await Promise.all(
      cids.map((cid) => api.post(`/ipfs/pin/${cid}`, undefined, { token: user.token })),
    );
    const created = answers.filter((a) => a.status === 201).length;
    const refused = answers.filter((a) => a.status === 409 && a.body.reason === 'TOO_MANY_PENDING_PINS');
    expect(created).toBe(MAX_PENDING);
    expect(refused.length).toBe(12 - MAX_PENDING);
    expect((await usage(user.token)).body).toMatchObject({ pendingPins: MAX_PENDING, usedBytes: 0 });
    // the Pinning Service API's add and replace are held to it too
    const psa = await api.post('/pins', { cid: await absentCid() }, { token: user.token });
    expect(psa.status).toBe(409);
    expect(psa.body.error.reason).toBe('TOO_MANY_PENDING_PINS');
    // asking again for a pin already pending is no new pin
    expect(
      (
        await api.post(`/ipfs/pin/${cids[answers.findIndex((a) => a.status === 201)]}`, undefined, {
          token: user.token,
        })
      ).status,
    ).toBe(200);
    // replacing a pending pin keeps the count: allowed
    const pending = (await api.get('/pins?status=queued', { token: user.token })).body.results;
    const replaced = await api.post(
      `/pins/${pending[0].requestid}`,
      { cid: await absentCid() },
      { token: user.token },
    );
    expect(replaced.status).toBe(202);
    expect((await usage(user.token)).body.pendingPins).toBe(MAX_PENDING);
  });

  it('a pin whose fetched DAG does not fit ends failed with QUOTA_EXCEEDED and counts nothing; another owner keeps it', async () => {
    const [owner, pinner] = [await memberUser(api), await memberUser(api)];
    const big = await uploadBytes(api, owner.token, text(8000), 'big.txt', 'text/plain');
    expect(big.status).toBe(201);
    expect((await uploadBytes(api, pinner.token, text(5000), 'mine.txt', 'text/plain')).status).toBe(201);
    const pinned = await api.post(`/ipfs/pin/${big.body.cid}`, undefined, { token: pinner.token });
    expect(pinned.status).toBe(201);
    const row = await settled(big.body.cid, pinner.id);
    expect(row).toMatchObject({ status: 'failed', failureReason: 'QUOTA_EXCEEDED', storedBytes: null });
    expect((await usage(pinner.token)).body).toMatchObject({ usedBytes: 5000, pins: 1, pendingPins: 0 });
    // the owner's pin stands
    expect(await storage().node.isPinned(CID.parse(big.body.cid))).toBe(true);
    expect((await fetch(`${t.url}/ipfs/file/${big.body.cid}`)).status).toBe(200);
  });

  it('a verified pin by CID counts its DAG size', async () => {
    const [owner, pinner] = [await memberUser(api), await memberUser(api)];
    const up = await uploadBytes(api, owner.token, text(2000), 'small.txt', 'text/plain');
    expect((await api.post(`/ipfs/pin/${up.body.cid}`, undefined, { token: pinner.token })).status).toBe(201);
    expect((await settled(up.body.cid, pinner.id)).status).toBe('pinned');
    // one raw block of 2,000 bytes: the DAG is the file
    expect((await usage(pinner.token)).body).toEqual({
      usedBytes: 2000,
      limitBytes: QUOTA,
      pins: 1,
      pendingPins: 0,
    });
    await api.delete(`/ipfs/unpin/${up.body.cid}`, { token: pinner.token });
    expect((await usage(pinner.token)).body.usedBytes).toBe(0);
  });
});

describe('PUT /admin/users/{id}/storage-quota', () => {
  it('sets, lifts and resets a user’s quota, audited; the admin’s view shows usage', async () => {
    const user = await memberUser(api);
    expect((await uploadBytes(api, user.token, text(3000), 'u.txt', 'text/plain')).status).toBe(201);
    const detail = await api.get(`/admin/users/${user.id}`, { token: admin.token });
    expect(detail.body.storage).toEqual({ usedBytes: 3000, limitBytes: QUOTA, pins: 1, pendingPins: 0 });

    const set = await setQuota(user.id, 50_000);
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ usedBytes: 3000, limitBytes: 50_000, pins: 1, pendingPins: 0 });
    expect((await uploadBytes(api, user.token, text(20_000), 'big.txt', 'text/plain')).status).toBe(201);
    // lowered below the usage: nothing is removed, the next upload is refused
    expect((await setQuota(user.id, 1000)).body).toMatchObject({ usedBytes: 23_000, limitBytes: 1000 });
    expect((await uploadBytes(api, user.token, 'x', 'x.txt', 'text/plain')).status).toBe(413);
    // 0 = unlimited
    expect((await setQuota(user.id, 0)).body.limitBytes).toBeNull();
    expect((await uploadBytes(api, user.token, 'y', 'y.txt', 'text/plain')).status).toBe(201);
    // null = the default again
    expect((await setQuota(user.id, null)).body.limitBytes).toBe(QUOTA);
    expect((await api.get(`/admin/users/${user.id}`, { token: admin.token })).body.storage.limitBytes).toBe(
      QUOTA,
    );

    const audits = await t.app.svc.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.storage_quota'), eq(auditLog.targetId, user.id)));
    expect(audits.map((a) => a.details)).toEqual([
      { from: QUOTA, to: 50_000, default: false },
      { from: 50_000, to: 1000, default: false },
      { from: 1000, to: 0, default: false },
      { from: 0, to: QUOTA, default: true },
    ]);
    expect(audits.every((a) => a.actorId === admin.id)).toBe(true);
  });

  it('is for admins only, validates the limit, and 404s an unknown user', async () => {
    const user = await memberUser(api);
    const other = await memberUser(api);
    const refused = await setQuota(other.id, 0, user.token);
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toBe('ADMIN_ONLY');
    expect((await usage(other.token)).body.limitBytes).toBe(QUOTA);
    expect((await setQuota(user.id, -1)).status).toBe(400);
    expect((await api.put(`/admin/users/${user.id}/storage-quota`, {}, { token: admin.token })).status).toBe(
      400,
    );
    expect((await setQuota('00000000-0000-4000-8000-000000000000', 5)).status).toBe(404);
  });
});

describe.runIf(TEST_DB === 'postgres')('PostgreSQL: quotas hold across instances', () => {
  it('two instances on one database share the quota', async () => {
    const second = await startTestApp({
      databaseUrl: t.databaseUrl,
      env: { STORAGE_QUOTA_BYTES: String(QUOTA), STORAGE_MAX_PENDING_PINS: String(MAX_PENDING) },
    });
    try {
      const user = await memberUser(api);
      const api2 = apiClient(second.url);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          uploadBytes(
            i % 2 ? api2 : api,
            user.token,
            text(3000, String.fromCharCode(97 + i)),
            `${i}.txt`,
            'text/plain',
          ),
        ),
      );
      expect(answers.filter((a) => a.status === 201).length).toBe(3);
      expect((await usage(user.token)).body.usedBytes).toBe(9000);
    } finally {
      await second.close();
    }
  });
});
