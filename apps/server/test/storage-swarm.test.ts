import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StorageRuntime } from '@plenum/core';
import { parseCid } from '@plenum/core';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { type HeliaPeer, startHeliaPeer } from './support/helia-peer';
import { type ApiClient, apiClient } from './support/http';
import { startServerProcess } from './support/server-process';
import { uploadBytes } from './support/storage';

/**
 * The embedded node on the network (docs/storage.md, "The embedded node on the network"), against a
 * real second Helia peer on loopback. The peer's node and the product's exchange blocks over libp2p
 * (TCP or WebSocket, noise, yamux) with bitswap.
 *
 * Networking touches no table, so these run on PGlite only (the pin states they reach are the SQL that
 * storage-pinning-api and storage-e2e run on both databases); two instances sharing one database need
 * PostgreSQL, and run there only.
 */
const SWARM = { IPFS_OFFLINE: 'false', IPFS_SWARM_PORT: '0', IPFS_SWARM_HOST: '127.0.0.1' };

let t: TestApp;
let api: ApiClient;
let peer: HeliaPeer;
const storage = (app: TestApp = t) => app.app.svc.storage as StorageRuntime;
const onPglite = describe.runIf(TEST_DB === 'pglite');

beforeAll(async () => {
  peer = await startHeliaPeer();
  t = await startTestApp({ env: { ...SWARM, IPFS_TIMEOUT: '20000' } });
  api = apiClient(t.url);
});
afterAll(async () => {
  await t?.close();
  await peer?.stop();
});

async function tokenFor(session: string) {
  const res = await api.post('/auth/tokens', { name: 'swarm' }, { token: session });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.token as string;
}

/** 1 MiB and a bit of random text: several blocks under one root, a type uploads accept */
const content = () => Buffer.from(randomBytes(512 * 1024 + 4321).toString('hex'));

/** UnixFS's default chunk: a file's raw leaves are its 256 KiB slices */
const CHUNK = 262_144;
/** The CID of a file's last leaf (raw leaves, CIDv1), whatever tree holds it */
async function lastLeaf(bytes: Buffer) {
  const start = Math.floor((bytes.length - 1) / CHUNK) * CHUNK;
  return CID.createV1(raw.code, await sha256.digest(bytes.subarray(start)));
}

/** Content on `holder` with its last leaf removed: the root and the first slices come, the rest never */
async function partialDag(holder: HeliaPeer) {
  const bytes = content();
  const root = await holder.add(bytes);
  const leaf = await lastLeaf(bytes);
  expect(await holder.has(leaf), 'the computed leaf is part of the DAG').toBe(true);
  await holder.deleteBlock(leaf);
  expect(await holder.has(leaf)).toBe(false);
  return { root, bytes };
}

/** Helia's pin records: `/pin/<cid>` for a pin and `/pinned-block/<cid>` for each block it holds */
function pinRecords(app: TestApp) {
  const dir = path.join(app.dataDir, 'ipfs', 'datastore');
  const list = (name: string) => (existsSync(path.join(dir, name)) ? readdirSync(path.join(dir, name)) : []);
  return { pins: list('pin'), pinnedBlocks: list('pinned-block') };
}

async function until(what: string, check: () => Promise<boolean> | boolean, tries = 600) {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never: ${what}`);
}

onPglite('the embedded node on the network', () => {
  it('reports its peer id, listen addresses and connections in /health; delegates are those addresses', async () => {
    const health = await api.get('/health');
    expect(health.status).toBe(200);
    const network = health.body.ipfs.network;
    expect(network).toEqual({
      peerId: expect.stringMatching(/^12D3KooW/),
      addresses: expect.arrayContaining([
        expect.stringMatching(/^\/ip4\/127\.0\.0\.1\/tcp\/\d+\/p2p\/12D3KooW/),
        expect.stringMatching(/^\/ip4\/127\.0\.0\.1\/tcp\/\d+\/ws\/p2p\/12D3KooW/),
      ]),
      connections: expect.any(Number),
    });
    for (const a of network.addresses) expect(a.endsWith(`/p2p/${network.peerId}`)).toBe(true);

    const user = await memberUser(api);
    const token = await tokenFor(user.token);
    const up = await uploadBytes(api, user.token, 'delegated', 'd.txt');
    const added = await api.post('/pins', { cid: up.body.cid }, { token });
    expect(added.status).toBe(202);
    expect(added.body.delegates.length).toBeGreaterThan(0);
    expect([...added.body.delegates].sort()).toEqual([...network.addresses].sort());
  });

  it("pins a CID only another peer holds, dialling the pin's origins: pinned, the bytes match, events fire", async () => {
    const bytes = content();
    const cid = (await peer.add(bytes)).toString();
    const user = await memberUser(api);
    const token = await tokenFor(user.token);
    const events: string[] = [];
    const off = [
      storage().events.on('ipfs:pin', (e) => e.cid === cid && events.push('pin')),
      storage().events.on('ipfs:pin.verified', (e) => e.cid === cid && events.push('verified')),
      storage().events.on('ipfs:pin.failed', (e) => e.cid === cid && events.push('failed')),
    ];
    try {
      const added = await api.post(
        '/pins',
        { cid, name: 'from-a-peer', origins: peer.addresses() },
        { token },
      );
      expect(added.status, JSON.stringify(added.body)).toBe(202);
      expect(added.body.status).toMatch(/queued|pinning/);
      await storage().idle();
      const status = await api.get(`/pins/${added.body.requestid}`, { token });
      expect(status.body.status).toBe('pinned');
      // a name-filtered listing finds it (the default status filter is "pinned")
      const listed = await api.get('/pins?name=from-a-peer', { token });
      expect(listed.body.results.map((r: { pin: { cid: string } }) => r.pin.cid)).toEqual([cid]);
      expect(events).toEqual(['pin', 'verified']);
      expect(await storage().node.isPinned(parseCid(cid).cid)).toBe(true);
      // where Helia keeps its pin records, which the failed-pin tests below expect to be empty
      const records = pinRecords(t);
      expect(records.pins.length).toBeGreaterThan(0);
      expect(records.pinnedBlocks.length).toBeGreaterThanOrEqual(3);

      const file = await fetch(`${t.url}/ipfs/file/${cid}`);
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    } finally {
      for (const f of off) f();
    }
  });

  it('a peer dials one of the delegates and fetches an uploaded file by CID', async () => {
    const user = await memberUser(api);
    const bytes = content();
    const up = await uploadBytes(api, user.token, bytes, 'big.txt', 'text/plain');
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const cid = CID.parse(up.body.cid);
    const other = await startHeliaPeer();
    try {
      const { addresses } = (await api.get('/health')).body.ipfs.network as { addresses: string[] };
      // over WebSocket this time: the TCP path is the one the previous test used
      await other.dial(addresses.find((a) => a.includes('/ws/'))!);
      expect(await other.has(cid)).toBe(false);
      const got = await other.cat(cid, AbortSignal.timeout(60_000));
      expect(got.equals(bytes)).toBe(true);
    } finally {
      await other.stop();
    }
  });
});

onPglite('a pin nobody can provide', () => {
  let lonely: TestApp;
  let lonelyApi: ApiClient;
  beforeAll(async () => {
    lonely = await startTestApp({ env: { ...SWARM, IPFS_TIMEOUT: '1500' } });
    lonelyApi = apiClient(lonely.url);
  });
  afterAll(() => lonely?.close());

  it('without origins and without a connection: failed after the timeout, no pin left on the node', async () => {
    // content that exists, but only on a peer the product is not connected to and was not told about
    const hidden = await peer.add(randomBytes(300_000));
    const user = await memberUser(lonelyApi);
    const res = await lonelyApi.post('/auth/tokens', { name: 'x' }, { token: user.token });
    const token = res.body.token as string;
    const failed: string[] = [];
    const off = storage(lonely).events.on('ipfs:pin.failed', (e) => failed.push(e.error));
    try {
      const added = await lonelyApi.post('/pins', { cid: hidden.toString() }, { token });
      expect(added.status).toBe(202);
      await storage(lonely).idle();
      const status = await lonelyApi.get(`/pins/${added.body.requestid}`, { token });
      expect(status.body.status).toBe('failed');
      expect(failed).toEqual(['not found within 1500 ms']);
      expect(await storage(lonely).node.isPinned(hidden)).toBe(false);
      // nothing half-written: the node holds no pin for it, so nothing would keep partial blocks
      const health = await lonelyApi.get('/health');
      expect(health.body.ipfs.network.connections).toBe(0);
      const read = await lonelyApi.get(`/ipfs/${hidden}`);
      expect(read.status).toBe(404);
    } finally {
      off();
    }
  });
});

onPglite('a DAG another peer holds only in part', () => {
  let partial: TestApp;
  let partialApi: ApiClient;
  let holder: HeliaPeer;
  beforeAll(async () => {
    holder = await startHeliaPeer();
    partial = await startTestApp({ env: { ...SWARM, IPFS_TIMEOUT: '1500' } });
    partialApi = apiClient(partial.url);
  });
  afterAll(async () => {
    await partial?.close();
    await holder?.stop();
  });

  it('a pin of it fails after the timeout and leaves no pin and no pinned-block record behind', async () => {
    const { root } = await partialDag(holder);
    const user = await memberUser(partialApi);
    const res = await partialApi.post('/auth/tokens', { name: 'x' }, { token: user.token });
    const token = res.body.token as string;
    const failed: string[] = [];
    const off = storage(partial).events.on('ipfs:pin.failed', (e) => failed.push(e.error));
    try {
      const added = await partialApi.post(
        '/pins',
        { cid: root.toString(), origins: holder.addresses() },
        { token },
      );
      expect(added.status).toBe(202);
      await storage(partial).idle();
      expect((await partialApi.get(`/pins/${added.body.requestid}`, { token })).body.status).toBe('failed');
      expect(failed).toEqual(['not found within 1500 ms']);
      // the blocks that did come are local, but nothing pins them: a walk that pinned as it went (Helia's
      // pins.add alone) would have left records for the root and the first leaves here
      expect(await storage(partial).node.isPinned(root)).toBe(false);
      expect(pinRecords(partial)).toEqual({ pins: [], pinnedBlocks: [] });
    } finally {
      off();
    }
  });

  it('a read of it ends when the stream stalls (no hanging request), and the server goes on', async () => {
    const { root, bytes } = await partialDag(holder);
    // connected (the previous test's origins, or this dial), so the node asks the holder over bitswap
    await holder.dial(
      ((await partialApi.get('/health')).body.ipfs.network.addresses as string[]).find(
        (a) => !a.includes('/ws/'),
      )!,
    );
    const res = await fetch(`${partial.url}/ipfs/file/${root}`);
    // the first slices are there, so the answer starts; it must end short of the whole file
    const body = await res.arrayBuffer().then(
      (b) => Buffer.from(b),
      () => null,
    );
    expect(res.status).toBe(200);
    expect(body === null || body.length < bytes.length, 'the stalled read did not end short').toBe(true);
    expect((await partialApi.get('/health')).status).toBe(200);
  });
});

onPglite('announce and bootstrap', () => {
  it('IPFS_ANNOUNCE replaces the addresses given out: /health and the delegates of a pin', async () => {
    const announced = await startTestApp({
      env: { ...SWARM, IPFS_ANNOUNCE: '/ip4/203.0.113.7/tcp/4001,/dns4/ipfs.example.org/tcp/443/wss' },
    });
    try {
      const aapi = apiClient(announced.url);
      const network = (await aapi.get('/health')).body.ipfs.network;
      expect([...network.addresses].sort()).toEqual(
        [
          `/dns4/ipfs.example.org/tcp/443/wss/p2p/${network.peerId}`,
          `/ip4/203.0.113.7/tcp/4001/p2p/${network.peerId}`,
        ].sort(),
      );
      const user = await memberUser(aapi);
      const token = (await aapi.post('/auth/tokens', { name: 'x' }, { token: user.token })).body.token;
      const up = await uploadBytes(aapi, user.token, 'announced', 'a.txt');
      const added = await aapi.post('/pins', { cid: up.body.cid }, { token });
      expect([...added.body.delegates].sort()).toEqual([...network.addresses].sort());
    } finally {
      await announced.close();
    }
  });

  it('dials the IPFS_BOOTSTRAP peers at start and again after the connection drops', async () => {
    const boot = await startHeliaPeer();
    const booted = await startTestApp({ env: { ...SWARM, IPFS_BOOTSTRAP: boot.addresses()[0]! } });
    try {
      const bapi = apiClient(booted.url);
      const productId = (await bapi.get('/health')).body.ipfs.network.peerId as string;
      const connectedToProduct = () =>
        boot.helia.libp2p.getConnections().some((c) => c.remotePeer.toString() === productId);
      await until('the product dialled its bootstrap peer', connectedToProduct);
      // the bootstrap peer hangs up: the product dials it again by itself (kept alive)
      const connection = boot.helia.libp2p
        .getConnections()
        .find((c) => c.remotePeer.toString() === productId)!;
      await boot.helia.libp2p.hangUp(connection.remotePeer);
      await until('the connection was closed', () => !connectedToProduct());
      await until('the product dialled its bootstrap peer again', connectedToProduct);
      expect((await bapi.get('/health')).body.ipfs.network.connections).toBeGreaterThan(0);
    } finally {
      await booted.close();
      await boot.stop();
    }
  });
});

onPglite('identity', () => {
  it('keeps its peer id across restarts (stored under DATA_DIR)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'plenum-swarm-id-'));
    try {
      const first = await startTestApp({ dataDir, env: SWARM });
      const id1 = (await apiClient(first.url).get('/health')).body.ipfs.network.peerId;
      await first.close();
      const second = await startTestApp({ dataDir, env: SWARM });
      const id2 = (await apiClient(second.url).get('/health')).body.ipfs.network.peerId;
      await second.close();
      expect(id2).toBe(id1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('IPFS_OFFLINE=1 keeps the socket-free node: no network in /health, no delegates', async () => {
    const offline = await startTestApp({ env: { IPFS_OFFLINE: '1' } });
    try {
      const oapi = apiClient(offline.url);
      expect((await oapi.get('/health')).body.ipfs).toEqual({ provider: 'embedded', ok: true });
      const user = await memberUser(oapi);
      const token = (await oapi.post('/auth/tokens', { name: 'x' }, { token: user.token })).body.token;
      const up = await uploadBytes(oapi, user.token, 'offline', 'o.txt');
      const added = await oapi.post('/pins', { cid: up.body.cid }, { token });
      expect(added.body.delegates).toEqual([]);
    } finally {
      await offline.close();
    }
  });
});

onPglite('a swarm port in use', () => {
  /** holds a port the way another program would; null when one already does */
  const hold = (port: number) =>
    new Promise<net.Server | null>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(null));
      server.listen(port, '127.0.0.1', () => resolve(server));
    });

  it('the default ports (4001, 4002) held by another program: the node takes free ports and starts', async () => {
    const held = await Promise.all([hold(4001), hold(4002)]);
    try {
      // IPFS_SWARM_PORT and IPFS_SWARM_WS_PORT unset: the defaults apply
      const app = await startTestApp({ env: { IPFS_OFFLINE: 'false', IPFS_SWARM_HOST: '127.0.0.1' } });
      try {
        const network = (await apiClient(app.url).get('/health')).body.ipfs.network;
        const ports = (network.addresses as string[]).map((a) => Number(a.split('/tcp/')[1]!.split('/')[0]));
        expect(ports.length).toBeGreaterThanOrEqual(2);
        for (const p of ports) expect([4001, 4002]).not.toContain(p);
      } finally {
        await app.close();
      }
    } finally {
      for (const s of held) s?.close();
    }
  });

  it('a port one chose stops the start with one line naming the variables to change, no stack trace', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const started = startServerProcess({ IPFS_SWARM_PORT: String(port), IPFS_SWARM_WS_PORT: '0' });
      const err = await started.then(
        async (p) => {
          await p.stop();
          return null;
        },
        (e: Error) => e,
      );
      expect(err?.message).toContain(`cannot listen on 127.0.0.1 TCP ${port}`);
      expect(err?.message).toContain('IPFS_SWARM_PORT');
      expect(err?.message).not.toMatch(/\n\s+at /);
    } finally {
      busy.close();
    }
  });
});

describe.runIf(TEST_DB === 'postgres')('two instances on one database, each with its own node', () => {
  let b: TestApp;
  beforeAll(async () => {
    const { peerId, addresses } = (await api.get('/health')).body.ipfs.network as {
      peerId: string;
      addresses: string[];
    };
    const tcpAddress = addresses.find((a) => !a.includes('/ws/'))!;
    expect(tcpAddress).toContain(peerId);
    b = await startTestApp({
      databaseUrl: t.databaseUrl!,
      env: { ...SWARM, IPFS_TIMEOUT: '20000', IPFS_BOOTSTRAP: tcpAddress },
    });
  });
  afterAll(() => b?.close());

  it('a file uploaded to one is readable through the other once they are connected', async () => {
    const apiB = apiClient(b.url);
    // the bootstrap dial happens in the background after start: wait for the connection itself
    await expect
      .poll(async () => (await apiB.get('/health')).body.ipfs.network.connections, { timeout: 30_000 })
      .toBeGreaterThan(0);
    const user = await memberUser(api);
    const bytes = content();
    const up = await uploadBytes(api, user.token, bytes, 'shared.txt', 'text/plain');
    expect(up.status).toBe(201);
    expect(await storage(b).node.isPinned(parseCid(up.body.cid).cid)).toBe(false);
    const file = await fetch(`${b.url}/ipfs/file/${up.body.cid}`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
