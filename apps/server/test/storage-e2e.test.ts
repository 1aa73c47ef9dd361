import type { StorageRuntime } from '@plenum/core';
import { parseCid } from '@plenum/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, memberUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';
import { PNG_1x1, uploadBytes } from './support/storage';

let t: TestApp;
let api: ApiClient;
const storage = () => t.app.svc.storage as StorageRuntime;

beforeAll(async () => {
  t = await startTestApp({ env: { IPFS_TIMEOUT: '1500' } });
  api = apiClient(t.url);
});
afterAll(() => t?.close());

describe('storage on the embedded node', () => {
  it('upload → file back → pin by a second owner → unpins → node unpins after the last owner', async () => {
    const alice = await memberUser(api);
    const bob = await memberUser(api);
    const events: string[] = [];
    for (const name of ['ipfs:write', 'ipfs:read', 'ipfs:pin', 'ipfs:unpin', 'ipfs:pin.verified'] as const)
      storage().events.on(name, (p) => events.push(`${name} ${JSON.stringify(p)}`));

    const up = await uploadBytes(api, alice.token, PNG_1x1, 'dot.png', 'image/png');
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body).toEqual({
      cid: expect.stringMatching(/^baf[ky]/),
      size: PNG_1x1.length,
      mimetype: 'image/png',
      filename: 'dot.png',
    });
    const cid = up.body.cid as string;
    expect(await storage().node.isPinned(parseCid(cid).cid)).toBe(true);

    const file = await fetch(`${t.url}/ipfs/file/${cid}`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG_1x1)).toBe(true);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
    expect(file.headers.get('content-disposition')).toBe(`inline; filename="${cid}.png"`);
    expect(file.headers.get('etag')).toBe(`"${cid}"`);
    expect(file.headers.get('cache-control')).toContain('immutable');
    const again = await fetch(`${t.url}/ipfs/file/${cid}`, { headers: { 'if-none-match': `"${cid}"` } });
    expect(again.status).toBe(304);

    const pinned = await api.post(`/ipfs/pin/${cid}`, undefined, { token: bob.token });
    expect(pinned.status, JSON.stringify(pinned.body)).toBe(201);
    expect(pinned.body).toMatchObject({ cid, owner: bob.wallet.address, status: 'pinning' });
    expect((await api.post(`/ipfs/pin/${cid}`, undefined, { token: bob.token })).status).toBe(200);
    await storage().idle();

    const stranger = await memberUser(api);
    const denied = await api.delete(`/ipfs/unpin/${cid}`, { token: stranger.token });
    expect(denied.status).toBe(403);
    expect(denied.body.reason).toBe('NOT_PIN_OWNER');

    const first = await api.delete(`/ipfs/unpin/${cid}`, { token: alice.token });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ cid, owners: [alice.wallet.address], unpinnedFromNode: false });
    expect(await storage().node.isPinned(parseCid(cid).cid)).toBe(true);

    const last = await api.delete(`/ipfs/unpin/${cid}`, { token: bob.token });
    expect(last.body).toEqual({ cid, owners: [bob.wallet.address], unpinnedFromNode: true });
    expect(await storage().node.isPinned(parseCid(cid).cid)).toBe(false);
    expect((await api.delete(`/ipfs/unpin/${cid}`, { token: bob.token })).status).toBe(404);

    expect(
      events.some((e) => e.startsWith('ipfs:write') && e.includes(cid) && e.includes(alice.wallet.address)),
    ).toBe(true);
    expect(
      events.filter((e) => e.startsWith('ipfs:pin.verified') && e.includes('"verified":true')),
    ).toHaveLength(2);
    expect(events.filter((e) => e.startsWith('ipfs:unpin'))).toHaveLength(2);
    expect(events.some((e) => e.startsWith('ipfs:read') && e.includes(cid))).toBe(true);
  });

  it('pins record verification; a CID that never shows up ends failed', async () => {
    const user = await memberUser(api);
    const text = await uploadBytes(api, user.token, 'hello plenum', 'hello.txt', 'text/plain');
    expect(text.status).toBe(201);
    await storage().idle();
    const list = await api.get('/pins', { token: user.token });
    expect(list.body.results[0].info.verified_at).toBeDefined();
    const v0 = 'QmdfTbBqBPQ7VNxZEYEj14VmRuZBkqFbiwReogJgS1zR1n';
    const failed = new Promise((resolve) => storage().events.on('ipfs:pin.failed', resolve));
    const res = await api.post(`/ipfs/pin/${v0}`, undefined, { token: user.token });
    expect(res.status).toBe(201);
    expect(res.body.cid).toBe(parseCid(v0).text);
    expect(await failed).toMatchObject({
      cid: parseCid(v0).text,
      error: expect.any(String),
      timestamp: expect.any(Number),
    });
    await storage().idle();
    const get = await api.get(`/pins?status=failed`, { token: user.token });
    expect(get.body.results.map((r: { pin: { cid: string } }) => r.pin.cid)).toContain(parseCid(v0).text);
  });

  it('GET /ipfs/{cid} parses JSON, returns text, refuses binary; metadata resolves images', async () => {
    const user = await memberUser(api);
    const img = (await uploadBytes(api, user.token, PNG_1x1, 'a.png')).body.cid as string;
    const doc = {
      name: 'x',
      image: `ipfs://${img}`,
      nested: { logo: img, other: `ipfs://${img}` },
      data: `data:application/json;base64,${Buffer.from('{"a":1}').toString('base64')}`,
    };
    const json = (await uploadBytes(api, user.token, JSON.stringify(doc), 'meta.json')).body.cid as string;
    expect((await api.get(`/ipfs/${json}`)).body).toEqual(doc);
    const txt = (await uploadBytes(api, user.token, 'just text', 't.txt')).body.cid as string;
    expect((await api.get(`/ipfs/${txt}`)).body).toBe('just text');
    expect((await api.get(`/ipfs/${img}`)).status).toBe(415);
    expect((await api.get('/ipfs/not-a-cid')).status).toBe(400);
    expect((await api.get('/ipfs/file/not-a-cid')).status).toBe(400);
    const missing = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
    expect((await api.get(`/ipfs/${missing}`)).status).toBe(404);
    expect((await api.get(`/ipfs/file/${missing}`)).status).toBe(404);
    const meta = await api.get(`/ipfs/metadata/${json}`);
    expect(meta.status).toBe(200);
    expect(meta.body.image).toBe(`${t.app.svc.config.storage.publicUrl}/ipfs/file/${img}`);
    expect(meta.body.nested.logo).toBe(`${t.app.svc.config.storage.publicUrl}/ipfs/file/${img}`);
    expect(meta.body.nested.other).toBe(`ipfs://${img}`);
    expect(meta.body.data).toEqual({ a: 1 });
    expect((await api.get(`/ipfs/metadata/${txt}`)).status).toBe(415);
  });

  it('writes need a wallet, a verified email and a session', async () => {
    const noWallet = await activeUser(api);
    const up = await uploadBytes(api, noWallet.token, 'x', 'x.txt');
    expect(up.status).toBe(403);
    expect(up.body.reason).toBe('WALLET_REQUIRED');
    const cid = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
    expect((await api.post(`/ipfs/pin/${cid}`, undefined, { token: noWallet.token })).body.reason).toBe(
      'WALLET_REQUIRED',
    );
    expect((await api.post(`/ipfs/pin/${cid}`)).status).toBe(401);
    expect((await uploadBytes(api, 'nope', 'x', 'x.txt')).status).toBe(401);
  });

  it('health shows the embedded node', async () => {
    const res = await api.get('/health');
    expect(res.body.ipfs).toEqual({ provider: 'embedded', ok: true });
  });
});
