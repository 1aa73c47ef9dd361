import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Coalesces the WebSocket frames of one delivery into one write per connection. A delivery of k events
 * to n subscribers would otherwise cost n × k socket writes (a system call each, the dominant cost of a
 * fan-out); corked, it costs n. The frames are produced in the microtasks that follow the bus's
 * synchronous hand-off, so uncorking on the next turn of the event loop flushes them all.
 */
export class SocketCorker {
  private readonly sockets = new Set<Duplex>();

  /** Tracks every upgraded connection of the server (tRPC and Socket.IO WebSockets). */
  track(server: Server) {
    server.on('upgrade', (_req, socket: Duplex) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  corked(deliver: () => void) {
    if (!this.sockets.size) return deliver();
    const corked = [...this.sockets].filter((s) => !s.destroyed);
    for (const s of corked) s.cork();
    try {
      deliver();
    } finally {
      setImmediate(() => {
        for (const s of corked) s.uncork();
      });
    }
  }
}
