import net from 'node:net';
import type { Transport } from '@libp2p/interface';
import { afterEach, describe, expect, it } from 'vitest';
import { InboundGuard } from './swarm-guard';

/** a stand-in for @libp2p/websockets: a transport whose listener owns a net.Server */
const fakeTransport = () => () =>
  ({
    createListener: () => ({ server: net.createServer({ pauseOnConnect: true }) }),
  }) as unknown as Transport;

const servers: net.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function listening(guard: InboundGuard) {
  const listener = guard
    .transport(fakeTransport())({})
    .createListener({} as never) as unknown as { server: net.Server };
  servers.push(listener.server);
  await new Promise<void>((r) => listener.server.listen(0, '127.0.0.1', r));
  return (listener.server.address() as net.AddressInfo).port;
}

function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  const connected = new Promise<void>((r) => socket.once('connect', () => r()));
  return { socket, closed, connected };
}

describe('InboundGuard', () => {
  it('destroys a socket that misses its deadline, refuses beyond the cap, and lets an opened connection be', async () => {
    const guard = new InboundGuard({ handshakeTimeoutMs: 200, maxPending: 2 });
    const port = await listening(guard);
    const a = connect(port);
    const b = connect(port);
    await Promise.all([a.connected, b.connected]);
    const until = async (check: () => boolean) => {
      while (!check()) await new Promise((r) => setTimeout(r, 5));
    };
    await until(() => guard.pendingCount === 2);
    const c = connect(port);
    await c.closed;
    expect(guard.counts.refused).toBe(1);
    // libp2p reports b's connection open: it is no longer pending and keeps no deadline
    guard.opened(`/ip4/127.0.0.1/tcp/${b.socket.localPort}/ws/p2p/12D3KooWxyz`);
    expect(guard.pendingCount).toBe(1);
    await a.closed;
    await until(() => guard.pendingCount === 0);
    expect(guard.counts.timedOut).toBe(1);
    expect(b.socket.destroyed).toBe(false);
    b.socket.destroy();
  });
});
