import type { Server, Socket } from 'node:net';
import type { Transport } from '@libp2p/interface';

export interface InboundGuardOptions {
  /** a connection that has not completed the libp2p handshake by then is destroyed */
  handshakeTimeoutMs: number;
  /** connections still in their handshake at once; further ones are destroyed as they arrive */
  maxPending: number;
}

/**
 * Bounds the sockets of the libp2p WebSocket listener that never become libp2p connections
 * (docs/storage.md, "The embedded node on the network"). @libp2p/websockets waits without a deadline
 * for a socket's first byte, leaves a half-sent HTTP request to Node's defaults, and closes a failed
 * upgrade with a WebSocket closing handshake that waits 30 s for a peer that never answers; libp2p's
 * own inbound limits start only once the WebSocket is open. So each socket gets a deadline from its
 * first moment until libp2p reports the connection open, and at most `maxPending` wait at once.
 */
export class InboundGuard {
  private readonly pending = new Map<Socket, NodeJS.Timeout>();
  /** sockets destroyed over the cap, and for missing their deadline (diagnostics and tests) */
  readonly counts = { refused: 0, timedOut: 0 };

  constructor(private readonly o: InboundGuardOptions) {}

  get pendingCount() {
    return this.pending.size;
  }

  /** wraps a transport factory: every listener it creates is guarded */
  transport<C>(factory: (components: C) => Transport): (components: C) => Transport {
    return (components) => {
      const transport = factory(components);
      const create = transport.createListener.bind(transport);
      transport.createListener = (options) => {
        const listener = create(options);
        // the listener's net.Server is private: without it there is nothing to guard (a changed library)
        const server = (listener as unknown as { server?: Server }).server;
        if (server && typeof server.on === 'function') server.on('connection', this.admit);
        else throw new Error('@libp2p/websockets changed: its listener has no net.Server to guard');
        return listener;
      };
      return transport;
    };
  }

  private readonly admit = (socket: Socket) => {
    // a destroyed socket must not become an unhandled 'error', whoever holds it by then
    socket.on('error', () => {});
    if (this.pending.size >= this.o.maxPending) {
      this.counts.refused++;
      socket.destroy(new Error('too many inbound connections in their handshake'));
      return;
    }
    const timer = setTimeout(() => {
      this.counts.timedOut++;
      socket.destroy(new Error('libp2p handshake timed out'));
    }, this.o.handshakeTimeoutMs);
    timer.unref();
    this.pending.set(socket, timer);
    socket.once('close', () => this.settle(socket));
  };

  /** libp2p opened a connection: the socket it came from (same remote address and port) is no longer pending */
  opened(remoteAddr: string) {
    const m = /^\/ip[46]\/([^/]+)\/tcp\/(\d+)\/ws(?:\/|$)/.exec(remoteAddr);
    if (!m) return;
    const [, host, port] = m;
    for (const socket of this.pending.keys()) {
      const address = socket.remoteAddress?.replace(/^::ffff:/, '');
      if (String(socket.remotePort) === port && address === host) {
        this.settle(socket);
        return;
      }
    }
  }

  private settle(socket: Socket) {
    const timer = this.pending.get(socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.pending.delete(socket);
  }
}
