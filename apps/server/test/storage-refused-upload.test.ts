import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StorageRuntime } from '@plenum/core';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { type HeliaPeer, startHeliaPeer } from './support/helia-peer';
import { type ApiClient, apiClient } from './support/http';
import { type KuboStandIn, startKuboStandIn } from './support/kubo-rpc-stand-in';
import { uploadBytes } from './support/storage';

/**
 * Nothing of a refused or failed upload stays readable or stored (docs/storage.md, "Uploading"): not
 * through GET /ipfs/file, not in the node's block store, not to a libp2p peer, not on a Kubo node. The
 * CIDs checked are those the content would have: raw leaves of 1 MiB (CIDv1, sha2-256), a small file
 * being one raw leaf.
 */
const LEAF = 1_048_576;
const MAX = 3 * LEAF;
const rawCid = async (bytes: Uint8Array) => CID.createV1(raw.code, await sha256.digest(bytes));
const leavesOf = (bytes: Buffer) =>
  Promise.all(
    Array.from({ length: Math.floor(bytes.length / LEAF) }, (_, i) =>
      rawCid(bytes.subarray(i * LEAF, (i + 1) * LEAF)),
    ),
  );

/** text that is UTF-8 for far more than the sniffed bytes, then is not */
const notUtf8 = () =>
  Buffer.concat([Buffer.from(randomBytes(8192).toString('hex')), Buffer.from([0xff, 0xfe, 0x41])]);
/** random text (a type uploads accept), `n` bytes */
const text = (n: number) => Buffer.from(randomBytes(Math.ceil(n / 2)).toString('hex')).subarray(0, n);

/** a multipart upload of `bytes` over a raw request; `abortAfter` bytes: the client goes away there */
function sendUpload(baseUrl: string, token: string, bytes: Buffer, abortAfter?: number) {
  return new Promise<number | null>((resolve) => {
    const boundary = `----plenum${Date.now()}`;
    const req = request(new URL('/ipfs/upload', baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? null));
    });
    req.on('error', () => resolve(null));
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    );
    const body = abortAfter === undefined ? bytes : bytes.subarray(0, abortAfter);
    req.write(body, () => {
      if (abortAfter === undefined) req.end(`\r\n--${boundary}--\r\n`);
      else setTimeout(() => req.destroy(), 200);
    });
    if (abortAfter !== undefined) req.on('close', () => resolve(null));
  });
}

async function until(check: () => Promise<boolean> | boolean, what: string, ms = 60_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the embedded node', () => {
  const SWARM = { IPFS_OFFLINE: 'false', IPFS_SWARM_PORT: '0', IPFS_SWARM_HOST: '127.0.0.1' };
  let t: TestApp;
  let api: ApiClient;
  let peer: HeliaPeer;
  const storage = () => t.app.svc.storage as StorageRuntime;
  const stored = (cid: CID) =>
    storage().node.getBlock!(cid).then(
      () => true,
      () => false,
    );

  async function expectNothingOf(refused: { what: string; cids: CID[] }[]) {
    for (const { what, cids } of refused) {
      for (const cid of cids) {
        expect(await stored(cid), `${what}: ${cid} in the block store`).toBe(false);
        const res = await fetch(`${t.url}/ipfs/file/${cid}`);
        expect(res.status, `${what}: GET /ipfs/file/${cid}`).toBe(404);
        await res.arrayBuffer();
      }
    }
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { ...SWARM, MAX_FILE_SIZE: String(MAX), IPFS_TIMEOUT: '20000' } });
    api = apiClient(t.url);
    peer = await startHeliaPeer();
  });
  afterAll(async () => {
    await peer?.stop();
    await t?.close();
  });

  it('a refused or failed upload leaves no block: not served, not stored, not given to a peer', async () => {
    const user = await memberUser(api);
    const refused: { what: string; cids: CID[] }[] = [];

    // text that stops being UTF-8 after the sniffed bytes: 415, one raw leaf
    const bad = notUtf8();
    const badUp = await uploadBytes(api, user.token, bad, 'notes.txt', 'text/plain');
    expect([badUp.status, badUp.body.reason]).toEqual([415, 'FILE_TYPE_NOT_ALLOWED']);
    refused.push({ what: 'not UTF-8 to the end', cids: [await rawCid(bad)] });

    // a type refused from its first bytes
    const html = Buffer.from(`<!DOCTYPE html><html><body>${randomBytes(64).toString('hex')}</body></html>`);
    const htmlUp = await uploadBytes(api, user.token, html, 'page.txt', 'text/plain');
    expect([htmlUp.status, htmlUp.body.reason]).toEqual([415, 'FILE_TYPE_NOT_ALLOWED']);
    refused.push({ what: 'type refused', cids: [await rawCid(html)] });

    // too large: 413 once 3 MiB are crossed; its first three leaves had arrived
    const big = text(MAX + LEAF);
    expect(await sendUpload(t.url, user.token, big)).toBe(413);
    refused.push({ what: 'too large', cids: await leavesOf(big.subarray(0, MAX)) });

    await expectNothingOf(refused);

    // the client goes away after two and a half leaves
    const cut = text(MAX - LEAF / 4);
    expect(await sendUpload(t.url, user.token, cut, 2 * LEAF + LEAF / 2)).toBe(null);
    const aborted = { what: 'client aborted', cids: await leavesOf(cut.subarray(0, 2 * LEAF)) };
    refused.push(aborted);
    // the server has seen the end of that request once its spool file is gone
    await until(() => readdirSync(storage().spoolDir).length === 0, 'the spool is empty');
    await expectNothingOf([aborted]);
    expect(await api.get('/pins', { token: user.token }).then((r) => r.body.count)).toBe(0);

    // a peer connects (only now: with a peer connected, an absent CID is asked of it, a 504 after
    // IPFS_TIMEOUT instead of the 404 above) and fetches what was accepted...
    const { addresses } = (await api.get('/health')).body.ipfs.network as { addresses: string[] };
    await peer.dial(addresses.find((a) => !a.includes('/ws'))!);
    const ok = text(LEAF / 2);
    const okUp = await uploadBytes(api, user.token, ok, 'ok.txt', 'text/plain');
    expect(okUp.status, JSON.stringify(okUp.body)).toBe(201);
    expect((await peer.cat(CID.parse(okUp.body.cid), AbortSignal.timeout(60_000))).equals(ok)).toBe(true);
    // ...and none of the refused content within a wait long beyond that fetch: "not found"
    const outcomes = await Promise.all(
      refused.flatMap(({ what, cids }) =>
        cids.map((cid) =>
          peer.cat(cid, AbortSignal.timeout(5_000)).then(
            () => `${what}: ${cid} fetched`,
            () => null,
          ),
        ),
      ),
    );
    expect(outcomes.filter(Boolean)).toEqual([]);
  });
});

describe('a Kubo node (the RPC stand-in)', () => {
  let dir: string;
  let kubo: KuboStandIn;
  let t: TestApp;
  let api: ApiClient;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'plenum-kubo-'));
    kubo = await startKuboStandIn(dir);
    t = await startTestApp({
      env: { IPFS_NODE_URL: kubo.url, IPFS_TIMEOUT: '2000', MAX_FILE_SIZE: String(MAX) },
    });
    api = apiClient(t.url);
  });
  afterAll(async () => {
    await t?.close();
    await kubo?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a refused upload is never added to Kubo', async () => {
    const user = await memberUser(api);
    const bad = notUtf8();
    const badUp = await uploadBytes(api, user.token, bad, 'notes.txt', 'text/plain');
    expect([badUp.status, badUp.body.reason]).toEqual([415, 'FILE_TYPE_NOT_ALLOWED']);
    const big = text(MAX + LEAF);
    expect(await sendUpload(t.url, user.token, big)).toBe(413);

    expect(kubo.calls.filter((c) => c === 'add')).toEqual([]);
    for (const cid of [await rawCid(bad), ...(await leavesOf(big.subarray(0, MAX)))]) {
      expect(
        await kubo.node.getBlock!(cid).then(
          () => 'stored',
          () => 'absent',
        ),
        String(cid),
      ).toBe('absent');
      const res = await fetch(`${t.url}/ipfs/file/${cid}`);
      expect(res.status).toBe(404);
      await res.arrayBuffer();
    }
    // an accepted one is
    const ok = await uploadBytes(api, user.token, text(1000), 'ok.txt', 'text/plain');
    expect(ok.status).toBe(201);
    expect(kubo.calls.filter((c) => c === 'add')).toEqual(['add']);
  });
});
