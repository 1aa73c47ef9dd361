import { readdirSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { until } from './support/events';
import { type HeliaPeer, startHeliaPeer } from './support/helia-peer';
import { apiClient } from './support/http';

/**
 * Sockets on the embedded node's libp2p WebSocket port that never complete the libp2p handshake
 * (docs/storage.md, "The embedded node on the network": connections that never handshake). Nothing here
 * touches the database: PGlite only.
 */
const SWARM = { IPFS_OFFLINE: 'false', IPFS_SWARM_PORT: '0', IPFS_SWARM_HOST: '127.0.0.1' };
const KINDS = ['silent', 'half an HTTP request', 'an upgraded WebSocket'] as const;
type Kind = (typeof KINDS)[number];

const descriptors = () => readdirSync('/proc/self/fd').length;

async function wsAddress(t: TestApp) {
  const res = await apiClient(t.url).get('/health');
  return (res.body.ipfs.network.addresses as string[]).find((a) => a.includes('/ws/'))!;
}

/** a socket to the swarm's WebSocket port that gets as far as `kind` and then says nothing more */
function idleSocket(port: number, kind: Kind) {
  const socket = net.connect(port, '127.0.0.1');
  const state = { connected: false, closed: false };
  socket.on('error', () => {});
  // read what the node answers (a 101 to the upgrade), so that its closing reaches 'close'
  socket.resume();
  socket.once('close', () => {
    state.closed = true;
  });
  socket.once('connect', () => {
    state.connected = true;
    if (kind === 'half an HTTP request') socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    if (kind === 'an upgraded WebSocket')
      socket.write(
        'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
  });
  return { socket, state, kind };
}

/** a real peer dials the WebSocket address (again while the node still sheds the idle sockets) */
async function peerConnects(peer: HeliaPeer, address: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const conn = await peer.dial(address, AbortSignal.timeout(10_000));
      expect(address.endsWith(`/p2p/${conn.remotePeer.toString()}`)).toBe(true);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe.skipIf(TEST_DB !== 'pglite')('sockets to the swarm WebSocket port that never handshake', () => {
  let peer: HeliaPeer;
  beforeAll(async () => {
    peer = await startHeliaPeer();
  });
  afterAll(() => peer?.stop());

  describe('a short handshake deadline', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: { ...SWARM, IPFS_SWARM_HANDSHAKE_TIMEOUT: '1000' } });
    });
    afterAll(() => t?.close());

    it('closes each of them, whatever it got to, and a real peer still connects', async () => {
      const address = await wsAddress(t);
      const port = Number(address.split('/tcp/')[1]!.split('/')[0]);
      const before = descriptors();
      const sockets = Array.from({ length: 60 }, (_, i) => idleSocket(port, KINDS[i % KINDS.length]!));
      try {
        await until(
          () => sockets.every((s) => s.state.connected || s.state.closed),
          'the sockets to connect',
        );
        const open = descriptors();
        await until(
          () => sockets.every((s) => s.state.closed),
          'the node to close every socket',
          30_000,
        ).catch(() => {});
        const closed = (kind: Kind) => sockets.filter((s) => s.kind === kind && s.state.closed).length;
        console.log(
          `60 sockets that never handshake, deadline 1 s: ${KINDS.map((k) => `${k} ${closed(k)}/20 closed`).join(', ')}; ` +
            `descriptors ${before} before, ${open} with them open, ${descriptors()} after`,
        );
        for (const kind of KINDS) expect(closed(kind), kind).toBe(20);
      } finally {
        for (const s of sockets) s.socket.destroy();
      }
      await peerConnects(peer, address);
      // the peer's connection outlives the deadline: a socket opened after it is closed first
      const later = idleSocket(port, 'silent');
      await until(() => later.state.closed, 'the node to close a later idle socket', 30_000);
      expect(peer.connections()).toBeGreaterThan(0);
      const health = await apiClient(t.url).get('/health');
      expect(health.body.ipfs.network.connections).toBeGreaterThan(0);
    }, 60_000);
  });

  describe('a cap on connections in their handshake', () => {
    let t: TestApp;
    const CAP = 20;
    beforeAll(async () => {
      // a deadline far beyond the test: what closes here is the cap's doing
      t = await startTestApp({
        env: { ...SWARM, IPFS_SWARM_HANDSHAKE_TIMEOUT: '600000', IPFS_SWARM_MAX_PENDING: String(CAP) },
      });
    });
    afterAll(() => t?.close());

    it('closes every socket beyond the cap at once; once they go, a real peer connects', async () => {
      const address = await wsAddress(t);
      const port = Number(address.split('/tcp/')[1]!.split('/')[0]);
      const sockets = Array.from({ length: 300 }, (_, i) => idleSocket(port, KINDS[i % KINDS.length]!));
      try {
        await until(
          () => sockets.every((s) => s.state.connected || s.state.closed),
          'the sockets to connect',
        );
        await until(
          () => sockets.filter((s) => s.state.closed).length >= 300 - CAP,
          'the node to close the sockets beyond the cap',
          30_000,
        ).catch(() => {});
        const closed = sockets.filter((s) => s.state.closed).length;
        console.log(
          `300 sockets that never handshake, cap ${CAP}: ${closed} closed by the node, ${300 - closed} open`,
        );
        expect(closed).toBe(300 - CAP);
      } finally {
        for (const s of sockets) s.socket.destroy();
      }
      await peerConnects(peer, address);
    }, 60_000);
  });
});
