import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEmbeddedNode, type NodeProvider } from '@plenum/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { downUrl, startGateway, type TestGateway } from './support/gateways';

// A separate embedded node holds the content; the apps under test have none of it locally.
let source: NodeProvider;
let dir: string;
let big: Uint8Array;
let bigCid: string;
let jsonCid: string;
const log: string[] = [];
const gateways: TestGateway[] = [];
const apps: TestApp[] = [];

async function* once(b: Uint8Array) {
  yield b;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'plenum-gw-'));
  source = await createEmbeddedNode({ dir: dir, timeoutMs: 30_000, swarm: null });
  big = new Uint8Array(700_000).map((_, i) => (i * 31) % 251);
  bigCid = (await source.add(once(big))).toString();
  jsonCid = (await source.add(once(new TextEncoder().encode('{"hello":"gateway"}')))).toString();
});
afterAll(async () => {
  for (const a of apps) await a.close();
  for (const g of gateways) await g.close();
  await source.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function app(urls: string[]) {
  const a = await startTestApp({ env: { IPFS_GATEWAY_URLS: urls.join(','), IPFS_TIMEOUT: '1500' } });
  apps.push(a);
  return a;
}
async function gw(kind: 'good' | 'slow' | 'evil', name: string) {
  const g = await startGateway(source, kind, log, name);
  gateways.push(g);
  return g;
}

describe('gateway provider', () => {
  it('falls back in order past a down and a slow gateway, and verifies every block', async () => {
    const slow = await gw('slow', 'slow');
    const good = await gw('good', 'good');
    const a = await app([await downUrl(), slow.url, good.url]);
    log.length = 0;
    const res = await fetch(`${a.url}/ipfs/file/${bigCid}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(big))).toBe(true);
    expect(res.headers.get('content-length')).toBe(String(big.length));
    // the slow one was asked first (the down one refused the connection), then the good one
    expect(log[0]).toBe('slow');
    expect(log[1]).toBe('good');
    // after failing once, the slow gateway goes last for the rest of that read
    expect(log.filter((n) => n === 'slow')).toHaveLength(1);
    const data = await fetch(`${a.url}/ipfs/${jsonCid}`);
    expect(await data.json()).toEqual({ hello: 'gateway' });
  });

  it('does not believe a gateway that returns wrong bytes', async () => {
    const evil = await gw('evil', 'evil');
    const good = await gw('good', 'good2');
    const a = await app([evil.url, good.url]);
    const res = await fetch(`${a.url}/ipfs/file/${bigCid}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(big))).toBe(true);
    expect(evil.hits).toBeGreaterThan(0);
    const onlyEvil = await app([evil.url]);
    const bad = await fetch(`${onlyEvil.url}/ipfs/file/${bigCid}`);
    expect(bad.status).toBe(502);
    expect((await bad.json()).reason).toBe('IPFS_PROVIDERS_FAILED');
  });

  it('answers 502 when every provider fails, 504 when every attempt times out, 404 when nobody has it', async () => {
    const slow = await gw('slow', 'slow2');
    const failing = await app([await downUrl(), (await gw('evil', 'evil2')).url]);
    expect((await fetch(`${failing.url}/ipfs/file/${bigCid}`)).status).toBe(502);
    expect((await fetch(`${failing.url}/ipfs/${jsonCid}`)).status).toBe(502);
    const timing = await app([slow.url]);
    const t504 = await fetch(`${timing.url}/ipfs/${jsonCid}`);
    expect(t504.status).toBe(504);
    expect((await t504.json()).reason).toBe('IPFS_TIMEOUT');
    const good = await app([(await gw('good', 'good3')).url]);
    const missing = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
    expect((await fetch(`${good.url}/ipfs/file/${missing}`)).status).toBe(404);
  });

  it('builds image URLs from the first gateway', async () => {
    const good = await gw('good', 'good4');
    const a = await app([good.url]);
    const user = a; // metadata resolution is public
    const doc = { image: `ipfs://${jsonCid}` };
    const meta = (await source.add(once(new TextEncoder().encode(JSON.stringify(doc))))).toString();
    const res = await fetch(`${user.url}/ipfs/metadata/${meta}`);
    expect(await res.json()).toEqual({ image: `${good.url}/ipfs/${jsonCid}` });
  });
});
