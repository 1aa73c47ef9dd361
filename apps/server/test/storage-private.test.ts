import { randomBytes } from 'node:crypto';
import type { AppRouter } from '@plenum/api';
import { ManualClock, type StorageRuntime } from '@plenum/core';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { addMember, createDao, type Member } from './support/governance';
import { startHeliaPeer } from './support/helia-peer';
import { type ApiClient, type ApiResponse, apiClient } from './support/http';

/**
 * Members-only and private files, signed expiring links, and no bitswap for private blocks
 * (docs/storage.md, "Private and members-only files", "Signed links", "Not given to other peers").
 * The node is on the network (loopback only) so that a second Helia peer can ask it for blocks.
 */
const clock = new ManualClock();
let t: TestApp;
let api: ApiClient;
const storage = () => t.app.svc.storage as StorageRuntime;

beforeAll(async () => {
  t = await startTestApp({
    clock,
    env: { IPFS_OFFLINE: 'false', IPFS_SWARM_PORT: '0', IPFS_SWARM_HOST: '127.0.0.1', IPFS_TIMEOUT: '3000' },
  });
  api = apiClient(t.url);
});
afterAll(() => t?.close());

const trpcAs = (token?: string) =>
  createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${t.url}/trpc`, headers: token ? { authorization: `Bearer ${token}` } : {} })],
  });

type Fields = Record<string, string>;

/** POST /ipfs/upload with the visibility fields before or after the file part */
async function upload(token: string, bytes: Uint8Array | string, fields: Fields = {}, fieldsFirst = false) {
  const form = new FormData();
  const add = () => {
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
  };
  if (fieldsFirst) add();
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  form.append('file', new Blob([new Uint8Array(data)], { type: 'text/plain' }), 'f.txt');
  if (!fieldsFirst) add();
  const res = await fetch(`${t.url}/ipfs/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await res.json();
  return { status: res.status, body };
}

async function uploaded(token: string, bytes: Uint8Array | string, fields: Fields = {}, fieldsFirst = false) {
  const res = await upload(token, bytes, fields, fieldsFirst);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.cid as string;
}

/** a CID nobody stored: the same shape (raw leaf, CIDv1) as a small upload's */
const absentCid = async () => CID.createV1(raw.code, await sha256.digest(randomBytes(32))).toString();

const readers = {
  file: (cid: string, token?: string) => api.get(`/ipfs/file/${cid}`, { token }),
  content: (cid: string, token?: string) => api.get(`/ipfs/${cid}`, { token }),
  metadata: (cid: string, token?: string) => api.get(`/ipfs/metadata/${cid}`, { token }),
};

/** what an answer says, with the CID in it made neutral and the per-request headers left out */
function shape(res: ApiResponse, cid: string) {
  const headers = [...(res.headers as unknown as Iterable<[string, string]>)]
    .filter(([k]) => !/^(date|x-request-id)$/i.test(k))
    .map(([k, v]) => `${k}: ${v.replaceAll(cid, 'CID')}`)
    .sort();
  return { status: res.status, body: res.text.replaceAll(cid, 'CID'), headers };
}

const uniqueText = (label: string) => `${label} ${randomBytes(8).toString('hex')}`;

describe('private files', () => {
  it('the owner reads them by file, content and metadata path (and tRPC); nobody else sees more than an absent CID', async () => {
    const owner = await memberUser(api);
    const stranger = await memberUser(api);
    const doc = JSON.stringify({ name: uniqueText('secret') });
    const cid = await uploaded(owner.token, doc, { visibility: 'private' });
    const absent = await absentCid();

    const file = await readers.file(cid, owner.token);
    expect(file.status).toBe(200);
    expect(file.text).toBe(doc);
    expect(file.headers.get('cache-control')).toBe('private, no-store');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await readers.content(cid, owner.token)).body).toEqual(JSON.parse(doc));
    expect((await readers.metadata(cid, owner.token)).status).toBe(200);
    expect(await trpcAs(owner.token).storage.get.query({ cid })).toEqual(JSON.parse(doc));

    for (const read of Object.values(readers)) {
      const missing = shape(await read(absent), absent);
      expect(missing.status).toBe(404);
      expect(shape(await read(cid), cid)).toEqual(missing);
      expect(shape(await read(cid, stranger.token), cid)).toEqual(missing);
    }
    // a conditional request tells nothing either: the 304 of any CID, no content
    const revalidate = (c: string) => api.get(`/ipfs/file/${c}`, { headers: { 'if-none-match': `"${c}"` } });
    const hidden = await revalidate(cid);
    expect(hidden.status).toBe(304);
    expect(hidden.text).toBe('');
    expect(shape(hidden, cid)).toEqual(shape(await revalidate(absent), absent));
    await expect(trpcAs(stranger.token).storage.get.query({ cid })).rejects.toSatisfy(
      (e) => e instanceof TRPCClientError && e.data?.httpStatus === 404,
    );
    // a public file keeps its shared-cache headers
    const open = await uploaded(owner.token, uniqueText('open'));
    const publicRead = await readers.file(open);
    expect(publicRead.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('reads fields before or after the file; refuses a bad visibility or a dao without its id', async () => {
    const owner = await memberUser(api);
    const before = await uploaded(owner.token, uniqueText('before'), { visibility: 'private' }, true);
    expect((await readers.file(before)).status).toBe(404);
    const pins = await trpcAs(owner.token).storage.myPins.query({});
    expect(pins.items.find((p) => p.cid === before)).toMatchObject({ visibility: 'private', daoId: null });

    const bad = await upload(owner.token, uniqueText('bad'), { visibility: 'secret' });
    expect(bad.status).toBe(400);
    expect(bad.body.reason).toBe('VALIDATION_FAILED');
    const noDao = await upload(owner.token, uniqueText('nodao'), { visibility: 'dao' });
    expect(noDao.status).toBe(400);
    expect(noDao.body.issues).toEqual([expect.objectContaining({ path: 'daoId', code: 'dao_id_required' })]);
  });

  it('a CID is public once anyone pins it publicly, and PATCH changes the caller’s visibility', async () => {
    const owner = await memberUser(api);
    const other = await memberUser(api);
    const text = uniqueText('both');
    const cid = await uploaded(owner.token, text, { visibility: 'private' });
    expect((await readers.file(cid)).status).toBe(404);
    // someone else uploads the same bytes publicly: content addressing makes it one file
    await uploaded(other.token, text);
    expect((await readers.file(cid)).status).toBe(200);
    await api.delete(`/ipfs/unpin/${cid}`, { token: other.token });
    expect((await readers.file(cid)).status).toBe(404);

    const patched = await api.request(
      'PATCH',
      `/ipfs/pin/${cid}`,
      { visibility: 'public' },
      { token: owner.token },
    );
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body[0]).toMatchObject({ cid, visibility: 'public' });
    expect((await readers.file(cid)).status).toBe(200);
    const notMine = await api.request(
      'PATCH',
      `/ipfs/pin/${cid}`,
      { visibility: 'private' },
      { token: other.token },
    );
    expect(notMine.status).toBe(404);
  });

  it('a pin by CID takes visibility in the query or body, and the Pinning Service API in meta', async () => {
    const owner = await memberUser(api);
    const stranger = await memberUser(api);
    const cid = await uploaded(stranger.token, uniqueText('pinned'), { visibility: 'private' });
    // the stranger's copy is private; the owner pins the same CID privately too (by query)
    const pinned = await api.post(`/ipfs/pin/${cid}?visibility=private`, undefined, { token: owner.token });
    expect(pinned.status, JSON.stringify(pinned.body)).toBe(201);
    expect(pinned.body.visibility).toBe('private');
    expect((await readers.file(cid, owner.token)).status).toBe(200);
    expect((await readers.file(cid)).status).toBe(404);

    const token = (await api.post('/auth/tokens', { name: 'psa' }, { token: owner.token })).body.token;
    const badMeta = await api.post('/pins', { cid, meta: { visibility: 'nope' } }, { token });
    expect(badMeta.status).toBe(400);
    expect(badMeta.body.error.reason).toBe('VALIDATION_FAILED');
    const psa = await api.post('/pins', { cid, meta: { visibility: 'public' } }, { token });
    expect(psa.status, JSON.stringify(psa.body)).toBe(202);
    expect((await readers.file(cid)).status).toBe(200);
  });

  it('concurrent reads: every stranger gets the 404, every owner read succeeds', async () => {
    const owner = await memberUser(api);
    const stranger = await memberUser(api);
    const text = uniqueText('busy');
    const cid = await uploaded(owner.token, text, { visibility: 'private' });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => readers.file(cid, i % 2 ? owner.token : stranger.token)),
    );
    const count = (status: number, who: number) =>
      results.filter((r, i) => i % 2 === who && r.status === status).length;
    expect([count(200, 1), count(404, 0)]).toEqual([20, 20]);
    expect(results.filter((r) => r.status === 200).every((r) => r.text === text)).toBe(true);
  });
});

describe('members-only files', () => {
  let owner: Member;
  let member: Member;
  let outsider: Member;
  let daoId: string;
  beforeAll(async () => {
    owner = await memberUser(api);
    member = await memberUser(api);
    outsider = await memberUser(api);
    daoId = (await createDao(api, owner)).daoId;
    await addMember(api, owner, daoId, member.wallet.address);
  });

  it('the DAO’s members read them, others get the 404 of an absent CID', async () => {
    const text = uniqueText('members');
    const cid = await uploaded(member.token, text, { visibility: 'dao', daoId });
    const absent = await absentCid();
    expect((await readers.file(cid, member.token)).text).toBe(text);
    // the DAO's owner counts as one of its members
    expect((await readers.file(cid, owner.token)).status).toBe(200);
    const missing = shape(await readers.file(absent, outsider.token), absent);
    expect(shape(await readers.file(cid, outsider.token), cid)).toEqual(missing);
    expect(shape(await readers.file(cid), cid)).toEqual(missing);
  });

  it('only a member may file content under a DAO; the DAO must exist', async () => {
    const refused = await upload(outsider.token, uniqueText('no'), { visibility: 'dao', daoId });
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toBe('NOT_A_MEMBER');
    const missing = await upload(member.token, uniqueText('no'), {
      visibility: 'dao',
      daoId: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing.status).toBe(400);
    const publicWithDao = await upload(member.token, uniqueText('no'), { visibility: 'public', daoId });
    expect(publicWithDao.status).toBe(400);
  });
});

describe('signed links', () => {
  it('work without credentials until they expire, then 403 LINK_EXPIRED; listed by CID', async () => {
    const owner = await memberUser(api);
    const text = uniqueText('linked');
    const cid = await uploaded(owner.token, text, { visibility: 'private' });
    const made = await api.post('/ipfs/links', { cid, expiresIn: 60 }, { token: owner.token });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toEqual({
      id: expect.any(String),
      cid,
      url: expect.stringMatching(/\/ipfs\/shared\/[\w-]{43}$/),
      expiresAt: new Date(clock.now().getTime() + 60_000).toISOString(),
    });
    const path = new URL(made.body.url).pathname;
    const got = await api.get(path);
    expect(got.status).toBe(200);
    expect(got.text).toBe(text);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-security-policy')).toContain('sandbox');
    expect(got.headers.get('cache-control')).toBe('private, no-store');

    const listed = await api.get(`/ipfs/links?cid=${cid}`, { token: owner.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: made.body.id, cid, revokedAt: null })]);
    expect(JSON.stringify(listed.body)).not.toContain(path.split('/').pop());

    clock.advance(61_000);
    const expired = await api.get(path);
    expect(expired.status).toBe(403);
    expect(expired.body.reason).toBe('LINK_EXPIRED');
    expect((await api.get('/ipfs/shared/not-a-real-token')).status).toBe(404);
  });

  it('revoked: 403 LINK_REVOKED at once, for every request in flight after it', async () => {
    const owner = await memberUser(api);
    const stranger = await memberUser(api);
    const cid = await uploaded(owner.token, uniqueText('revoke'), { visibility: 'private' });
    const made = await api.post('/ipfs/links', { cid, expiresIn: 3600 }, { token: owner.token });
    const path = new URL(made.body.url).pathname;
    expect((await api.get(path)).status).toBe(200);
    // only the maker revokes it
    expect((await api.delete(`/ipfs/links/${made.body.id}`, { token: stranger.token })).status).toBe(404);
    const revoked = await api.delete(`/ipfs/links/${made.body.id}`, { token: owner.token });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    const uses = await Promise.all(Array.from({ length: 20 }, () => api.get(path)));
    expect(uses.map((u) => `${u.status} ${u.body?.reason}`)).toEqual(Array(20).fill('403 LINK_REVOKED'));
  });

  it('refuses a lifetime out of range (400) and a link to a file the caller may not read (404)', async () => {
    const owner = await memberUser(api);
    const stranger = await memberUser(api);
    const cid = await uploaded(owner.token, uniqueText('range'), { visibility: 'private' });
    for (const expiresIn of [0, 604_801, 1.5, '60']) {
      const res = await api.post('/ipfs/links', { cid, expiresIn }, { token: owner.token });
      expect(res.status, String(expiresIn)).toBe(400);
    }
    expect((await api.post('/ipfs/links', { cid, expiresIn: 604_800 }, { token: owner.token })).status).toBe(
      201,
    );
    const notYours = await api.post('/ipfs/links', { cid, expiresIn: 60 }, { token: stranger.token });
    expect(notYours.status).toBe(404);
    expect(notYours.body.reason).toBe('CONTENT_NOT_FOUND');
    const many = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.post('/ipfs/links', { cid, expiresIn: 60 }, { token: stranger.token }),
      ),
    );
    expect(many.map((r) => r.status)).toEqual(Array(20).fill(404));
    expect((await api.post('/ipfs/links', { cid, expiresIn: 60 })).status).toBe(401);
  });
});

describe('not given to other IPFS peers', () => {
  it('a second Helia peer gets nothing of a private file; a public one, and blocks it shares, transfer', async () => {
    const owner = await memberUser(api);
    // 1 MiB exactly is one raw leaf; the private file starts with those same bytes, so shares that leaf
    const leaf = Buffer.alloc(1_048_576, 0x61 + (randomBytes(1)[0]! % 20));
    const publicCid = CID.parse(await uploaded(owner.token, leaf));
    const secret = Buffer.concat([leaf, Buffer.from(uniqueText(' and the secret tail'))]);
    const privateCid = CID.parse(await uploaded(owner.token, secret, { visibility: 'private' }));
    const onlyPrivate = CID.parse(
      await uploaded(owner.token, uniqueText('tiny secret'), { visibility: 'private' }),
    );
    await storage().idle();
    expect(storage().node.privacy?.refuses(privateCid)).toBe(true);
    expect(storage().node.privacy?.refuses(publicCid)).toBe(false);

    const peer = await startHeliaPeer();
    try {
      const { addresses } = (await api.get('/health')).body.ipfs.network as { addresses: string[] };
      await peer.dial(addresses.find((a) => !a.includes('/ws/'))!);
      for (const cid of [privateCid, onlyPrivate]) {
        await expect(peer.cat(cid, AbortSignal.timeout(2_000))).rejects.toThrow();
        expect(await peer.has(cid)).toBe(false);
      }
      // the same multihash asked for as CIDv1 dag-pb of another codec is still refused (blocks match by hash)
      expect(storage().node.privacy?.refuses(CID.createV1(0x55, onlyPrivate.multihash))).toBe(true);
      const got = await peer.cat(publicCid, AbortSignal.timeout(30_000));
      expect(got.equals(leaf)).toBe(true);

      // made public, the private file transfers too
      const patched = await api.request(
        'PATCH',
        `/ipfs/pin/${privateCid}`,
        { visibility: 'public' },
        { token: owner.token },
      );
      expect(patched.status).toBe(200);
      await storage().idle();
      expect((await peer.cat(privateCid, AbortSignal.timeout(30_000))).equals(secret)).toBe(true);
    } finally {
      await peer.stop();
    }
  });
});
