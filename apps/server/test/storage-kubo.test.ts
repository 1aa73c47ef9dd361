import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCid } from '@plenum/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';
import { type KuboStandIn, startKuboStandIn } from './support/kubo-rpc-stand-in';
import { PNG_1x1, uploadBytes } from './support/storage';

let kubo: KuboStandIn;
let t: TestApp;
let api: ApiClient;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'plenum-kubo-'));
  kubo = await startKuboStandIn(dir);
  t = await startTestApp({ env: { IPFS_NODE_URL: kubo.url, IPFS_TIMEOUT: '2000' } });
  api = apiClient(t.url);
});
afterAll(async () => {
  await t?.close();
  await kubo?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Kubo node provider (kubo-rpc-client against a Kubo RPC stand-in)', () => {
  it('uploads, reads, pins, unpins and reports status through the Kubo RPC API', async () => {
    expect((await api.get('/health')).body.ipfs).toEqual({ provider: 'kubo', ok: true });
    const user = await memberUser(api);
    const up = await uploadBytes(api, user.token, PNG_1x1, 'dot.png');
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const cid = parseCid(up.body.cid).cid;
    expect(await kubo.node.isPinned(cid)).toBe(true);
    const file = await fetch(`${t.url}/ipfs/file/${up.body.cid}`);
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG_1x1)).toBe(true);
    // Kubo's cat gives no size: HEAD leaves the length out rather than claim 0 (the page says "size unknown")
    const head = await fetch(`${t.url}/ipfs/file/${up.body.cid}`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(head.headers.get('content-length')).toBeNull();
    await (t.app.svc.storage as { idle(): Promise<void> }).idle();
    const psaList = await api.get('/pins', { token: user.token });
    expect(psaList.body.results[0].delegates[0]).toContain('/p2p/');
    const un = await api.delete(`/ipfs/unpin/${up.body.cid}`, { token: user.token });
    expect(un.body.unpinnedFromNode).toBe(true);
    expect(await kubo.node.isPinned(cid)).toBe(false);
    for (const c of ['add', 'cat', 'pin/add', 'pin/rm', 'version', 'routing/provide', 'id'])
      expect(kubo.calls).toContain(c);
    expect((await api.get('/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy')).status).toBe(
      404,
    );
  });

  it("dials a pin's origins through swarm/connect before pin/add", async () => {
    const user = await memberUser(api);
    const up = await uploadBytes(api, user.token, 'origins on kubo', 'o.txt');
    await (t.app.svc.storage as { idle(): Promise<void> }).idle();
    const origin = '/ip4/127.0.0.1/tcp/4101/p2p/12D3KooWGzxzKZYveHXtpG6AsrUJBcWxHBFS2HsEoGTxrMLvKXtf';
    const before = kubo.calls.length;
    // another owner's pin by CID: the node pins again, dialling the origins first
    const other = await memberUser(api);
    const otherToken = (await api.post('/auth/tokens', { name: 'k' }, { token: other.token })).body.token;
    const added = await api.post('/pins', { cid: up.body.cid, origins: [origin] }, { token: otherToken });
    expect(added.status).toBe(202);
    await (t.app.svc.storage as { idle(): Promise<void> }).idle();
    expect(kubo.dialled).toEqual([origin]);
    const after = kubo.calls.slice(before);
    expect(after.indexOf('swarm/connect')).toBeGreaterThanOrEqual(0);
    expect(after.indexOf('swarm/connect')).toBeLessThan(after.indexOf('pin/add'));
  });
});
