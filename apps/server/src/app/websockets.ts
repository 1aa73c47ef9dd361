import type { Server as HttpServer } from 'node:http';
import { appRouter, type Context } from '@plenum/api';
import { TRPCError } from '@trpc/server';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import type { Env } from '../env';
import { streamConnection } from '../events/pacer';
import { attachSocketIo, closeSocketIo } from '../events/socket-io';
import type { Authenticate } from '../http/authenticate';
import { clientIp, requestIdOf } from '../http/request-info';
import type { createServices } from '../services';

export interface WebSocketsOptions {
  env: Env;
  services: Awaited<ReturnType<typeof createServices>>;
  authenticate: Authenticate;
  corsOrigins: string[];
}

/**
 * The two WebSocket transports on the HTTP server's port: tRPC subscriptions at /trpc ({ token } in
 * connectionParams) and Socket.IO at /socket.io (docs/events.md). Socket.IO shares the HTTP server's
 * upgrades, so the WebSocket server is attached by path rather than as a Fastify plugin (which would take
 * every upgrade); any other upgrade is refused.
 */
export function attachWebSockets(
  server: HttpServer,
  { env, services, authenticate, corsOrigins }: WebSocketsOptions,
) {
  const { svc } = services;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1_048_576 });
  server.on('upgrade', (req, socket, head) => {
    // a peer that resets the connection mid-handshake must not become an unhandled 'error'
    socket.on('error', () => socket.destroy());
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (pathname === '/trpc' || pathname === '/trpc/') {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    } else if (!pathname.startsWith('/socket.io/')) {
      // Socket.IO answers its own upgrades; anything else is refused instead of left hanging
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
  });
  const wsHandler = applyWSSHandler({
    wss,
    router: appRouter,
    keepAlive: { enabled: true, pingMs: 30_000, pongWaitMs: 5_000 },
    async createContext({ req, res, info }): Promise<Context> {
      const requestId = requestIdOf(req);
      const params = info.connectionParams as { token?: unknown } | null;
      const auth = await authenticate(req, { given: params?.token, stream: true, requestId });
      if (!auth.ok) {
        if (auth.reason === 'DATABASE_UNAVAILABLE') throw auth.error;
        if (auth.reason === 'CSRF')
          throw new TRPCError({
            code: 'FORBIDDEN',
            message: 'Cross-origin connection with the session cookie refused',
          });
        throw new TRPCError({ code: 'UNAUTHORIZED', message: 'A valid session or access token is required' });
      }
      // this connection's event streams: a cap on their number and backpressure (docs/events.md, "Limits")
      const connection = streamConnection(res, {
        perConnection: env.EVENTS_MAX_SUBSCRIPTIONS_PER_CONNECTION,
        maxBuffered: env.EVENTS_MAX_BUFFERED_BYTES,
        waiting: services.events,
      });
      return {
        svc,
        principal: auth.principal,
        token: auth.token,
        ip: clientIp(req, env.TRUST_PROXY),
        socketAddress: req.socket.remoteAddress ?? null,
        userAgent: req.headers['user-agent'] ?? null,
        requestId,
        transport: 'ws',
        setSessionCookie() {},
        setHeader() {},
        connection,
      };
    },
  });

  // live events are written to the sockets in corked batches (events/cork.ts)
  services.corker.track(server);
  const io = attachSocketIo(server, { svc, bus: services.events, corsOrigins, authenticate });

  return {
    /** open connections by transport, for /metrics */
    connections: () => ({ trpc: wss.clients.size, socketIo: io.engine.clientsCount }),
    /** tRPC clients are told to reconnect elsewhere (they resume by last event id), then every socket ends */
    async close() {
      wsHandler.broadcastReconnectNotification();
      for (const client of wss.clients) client.terminate();
      wss.close();
      await closeSocketIo(io);
    },
  };
}

export type WebSockets = ReturnType<typeof attachWebSockets>;
