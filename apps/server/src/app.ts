import path from 'node:path';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import { accessRefusal, appRouter, type Context } from '@plenum/api';
import {
  type Clock,
  createLogger,
  dummyPasswordHash,
  type Logger,
  resolveToken,
  systemClock,
} from '@plenum/core';
import { createDb } from '@plenum/db';
import { TRPCError } from '@trpc/server';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { WebSocketServer } from 'ws';
import type { Env } from './env';
import { streamConnection } from './events/pacer';
import { attachSocketIo, closeSocketIo } from './events/socket-io';
import { refuseBody, useBodyParsers } from './http/body';
import { isCrossOriginCookieRequest, trustedOrigins } from './http/csrf';
import { registerDocs } from './http/docs';
import { createMetrics, metricsServer, registerMetricsRoute } from './http/metrics';
import { buildOpenApiDocument } from './http/openapi';
import { installPipeline } from './http/pipeline';
import { createRateLimiter } from './http/rate-limit';
import { clientIp, credentialOf, isHttps, requestIdOf, SESSION_COOKIE } from './http/request-info';
import { registerRest } from './http/rest';
import { checkRouteInput, fastifyPath, type RouteSet, routeSetPaths } from './http/routes';
import { guardSlowClients } from './http/slow-clients';
import { governanceRoutes } from './routes/governance';
import { notificationsRoutes } from './routes/notifications';
import { storageRoutes } from './routes/storage';
import { usersRoutes } from './routes/users';
import { createServices } from './services';
import { VERSION } from './version';

export interface AppOptions {
  env: Env;
  clock?: Clock;
  logger?: Logger;
  /** PGlite location override (tests use 'memory://') */
  pgliteDir?: string;
}

/** Each domain's plain routes (beside its procedures); a domain adds one line here. */
const ROUTE_SETS: RouteSet[] = [usersRoutes, storageRoutes, governanceRoutes, notificationsRoutes];

/**
 * The HTTP server (docs/architecture.md): Fastify with the request pipeline (http/pipeline.ts), the
 * procedures over tRPC (HTTP and WebSocket) and as REST paths, the plain routes, Socket.IO, the health
 * and docs pages; every part gets the one service container (services.ts).
 */
export async function createApp(options: AppOptions) {
  const { env } = options;
  const log = options.logger ?? createLogger({ level: env.LOG_LEVEL });
  const dbHandle = await createDb({
    databaseUrl: env.DATABASE_URL,
    dataDir: options.pgliteDir ?? path.join(env.dataDir, 'pg'),
    maxConnections: env.DATABASE_POOL_SIZE,
    connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT,
    statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT,
    acquireTimeoutMs: env.DATABASE_ACQUIRE_TIMEOUT,
  });
  await dbHandle.migrate();
  const migrated = true; // this process applied (or found applied) every migration before serving
  const services = await createServices(env, dbHandle, { clock: options.clock ?? systemClock, log });
  const { svc } = services;
  void dummyPasswordHash(); // ready before the first login, so unknown emails cost no extra time

  let openapiDoc: unknown;
  const openapi = () => {
    if (!openapiDoc) {
      const doc = buildOpenApiDocument(
        appRouter,
        VERSION,
        env.APP_URL.replace(/:\d+$/, `:${env.PORT}`),
        ROUTE_SETS.map(routeSetPaths),
      );
      // the development outbox answers 404 once an email provider is configured: not part of the API then
      if (env.RESEND_API_KEY && doc.paths) delete doc.paths['/dev/outbox'];
      openapiDoc = doc;
    }
    return openapiDoc;
  };

  const app = Fastify({
    logger: false,
    genReqId: (req) => requestIdOf(req),
    bodyLimit: env.MAX_JSON_BODY,
    // long uploads stream: no deadline for a whole request; the headers have theirs here and the body its
    // own rule (http/slow-clients.ts; docs/operations.md, "Slow clients")
    requestTimeout: 0,
    http: {
      headersTimeout: env.HTTP_HEADERS_TIMEOUT,
      // Node checks the deadline this often (default 30 s, longer than the deadline itself)
      connectionsCheckingInterval: Math.min(5_000, Math.max(100, env.HTTP_HEADERS_TIMEOUT / 4)),
    },
    // on close, idle keep-alive connections end at once and requests in flight finish (docs/operations.md)
    forceCloseConnections: 'idle',
    return503OnClosing: false, // the pipeline answers 503 SHUTTING_DOWN in the one error body instead
    // paths match whatever the letter case, as REST paths always did (docs/api.md, "Transports")
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: false, maxParamLength: 4096 },
  });
  guardSlowClients(app.server, {
    bodyTimeoutMs: env.HTTP_BODY_TIMEOUT,
    rateWindowMs: env.HTTP_UPLOAD_RATE_WINDOW,
    minRate: env.HTTP_UPLOAD_MIN_RATE,
    maxPerIp: env.maxConnectionsPerIp,
  });
  const secureCookies = env.APP_URL.startsWith('https:');
  const originPolicy = { trusted: trustedOrigins(env.APP_URL, env.CORS_ORIGINS, env.publicUrl) };
  const corsOrigins = [new URL(env.APP_URL).origin, ...env.CORS_ORIGINS];

  await app.register(cors, {
    origin: corsOrigins,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'trpc-accept'],
    exposedHeaders: [
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
      'X-Request-Id',
    ],
    maxAge: 600,
    strictPreflight: false,
  });
  // the credential is read by the pipeline itself (request-info.ts), so cookies are not parsed per request
  await app.register(cookie, { hook: false });
  // set once the instance begins to stop: /ready answers 503 so a load balancer drains it first
  let draining = false;
  // set once it stops: new requests are refused (503 SHUTTING_DOWN) while those in flight finish
  let closing = false;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1_048_576 });
  let io: ReturnType<typeof attachSocketIo> | null = null;
  const metrics = createMetrics({
    svc,
    availability: dbHandle.availability,
    connections: () => ({ trpc: wss.clients.size, socketIo: io?.engine.clientsCount ?? 0 }),
    votes: services.governance.batcher,
    events: services.events,
    pools: services.pools,
  });
  installPipeline(app, {
    closing: () => closing,
    metrics,
    svc,
    router: appRouter,
    availability: dbHandle.availability,
    rateLimiter: createRateLimiter(dbHandle.db, {
      perMinute: env.RATE_LIMIT_PER_MINUTE,
      authPerMinute: env.RATE_LIMIT_AUTH_PER_MINUTE,
      disabled: env.RATE_LIMIT_DISABLED,
    }),
    originPolicy,
    trustProxy: env.TRUST_PROXY,
    maxBatch: env.TRPC_MAX_BATCH,
  });

  function contextFor(
    request: FastifyRequest,
    reply: FastifyReply | null,
    transport: Context['transport'],
  ): Context {
    const state = request.plenum!;
    return {
      svc,
      principal: state.principal,
      token: state.token,
      ip: state.ip,
      socketAddress: request.raw.socket.remoteAddress ?? null,
      userAgent: request.headers['user-agent'] ?? null,
      requestId: request.id,
      transport,
      setSessionCookie(token, { maxAgeSeconds }) {
        // Secure whenever the app or this request is on https (docs/api.md, "Cross-site requests")
        reply?.setCookie(SESSION_COOKIE, token, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          maxAge: maxAgeSeconds,
          secure: secureCookies || isHttps(request.raw, env.TRUST_PROXY),
        });
      },
      setHeader(name, value) {
        reply?.header(name, value);
      },
    };
  }

  /** the IPFS provider's own answer, for /health and /ready */
  const storageStatus = async () => {
    const storage = svc.storage;
    if (!storage) return { provider: 'none', ok: false };
    const ok = await storage.node.status().then(
      (st) => st.ok,
      () => false,
    );
    // the embedded node's place on the network: peer id, listen addresses, connected peers
    const network = storage.node.network?.() ?? null;
    return { provider: storage.node.name, ok, ...(network ? { network } : {}) };
  };

  // system paths: no credentials, no rate limit, answered while the database is down
  app.get('/health', { config: { system: true } }, async (_request, reply) => {
    // within ~500 ms whatever the database does: a known outage answers at once, else a ping with a deadline
    const dbOk = dbHandle.availability.up && (await dbHandle.availability.check());
    const ipfs = await storageStatus();
    return reply
      .code(dbOk ? 200 : 503)
      .header('Cache-Control', 'no-store')
      .send({ status: dbOk ? 'ok' : 'degraded', version: VERSION, db: dbOk ? 'ok' : 'down', ipfs });
  });
  // readiness for a load balancer (docs/operations.md, "Liveness and readiness"): the database answers,
  // migrations are applied, the storage provider answers, and the instance is not stopping
  app.get('/ready', { config: { system: true } }, async (_request, reply) => {
    const database = !draining && dbHandle.availability.up && (await dbHandle.availability.check());
    const storageOk = (await storageStatus()).ok;
    const ready = !draining && database && migrated && storageOk;
    reply.code(ready ? 200 : 503).header('Cache-Control', 'no-store');
    if (!ready) reply.header('Retry-After', '1');
    return {
      status: ready ? 'ready' : 'not_ready',
      checks: {
        database: database ? 'ok' : 'down',
        migrations: migrated ? 'ok' : 'pending',
        storage: storageOk ? 'ok' : 'down',
        shutdown: draining,
      },
    };
  });
  if (env.METRICS_TOKEN) registerMetricsRoute(app, metrics, env.METRICS_TOKEN);
  registerDocs(app, openapi);

  // procedures over tRPC HTTP (/trpc/a.b, batches /trpc/a.b,c.d)
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req, res }: { req: FastifyRequest; res: FastifyReply }) =>
        contextFor(req, res, 'trpc'),
      responseMeta: ({ errors }: { errors: { code: string }[] }) =>
        errors.some((e) => e.code === 'SERVICE_UNAVAILABLE') ? { headers: { 'Retry-After': '1' } } : {},
    },
  });

  // procedures as REST paths
  await registerRest(app, { router: appRouter, createContext: (req, res) => contextFor(req, res, 'rest') });

  // the plain routes, in a scope whose non-JSON bodies stay unread for the handler to stream
  await app.register(async (scope) => {
    useBodyParsers(scope, 'stream');
    for (const route of ROUTE_SETS.flatMap((s) => s.routes)) {
      scope.route({
        method: route.method,
        url: fastifyPath(route.path),
        config: { access: route.access, rateLimit: route.rateLimit, errorFormat: route.errorFormat },
        ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
        // the caller's access is checked before any of the body is read
        onRequest: async (request) => {
          const refusal = accessRefusal(svc, request.plenum?.principal ?? null, route.access);
          if (refusal) throw refusal;
        },
        preHandler: route.noBody || route.method === 'DELETE' ? refuseBody : undefined,
        handler: (request, reply) => {
          const params = request.params as Record<string, string>;
          const query = new URLSearchParams(request.url.split('?')[1] ?? '');
          checkRouteInput(route, params, query);
          return route.handler({
            request,
            reply,
            params,
            query,
            principal: request.plenum?.principal ?? null,
            svc,
            log: log.child({ requestId: request.id }),
          });
        },
      });
    }
  });

  // tRPC subscriptions over WebSocket on the same port and path; { token } in connectionParams. Socket.IO
  // shares the HTTP server's upgrades, so the WebSocket server is attached by path rather than as a
  // Fastify plugin (which would take every upgrade).
  const server = app.server;
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
      const params = info.connectionParams as { token?: unknown } | null;
      const given = typeof params?.token === 'string' ? params.token : null;
      if (!given && isCrossOriginCookieRequest(req, originPolicy, { stream: true }))
        throw new TRPCError({
          code: 'FORBIDDEN',
          message: 'Cross-origin connection with the session cookie refused',
        });
      const token = given ?? credentialOf(req);
      const principal = token ? await resolveToken(svc, { token }) : null;
      if (!principal)
        throw new TRPCError({ code: 'UNAUTHORIZED', message: 'A valid session or access token is required' });
      // this connection's event streams: a cap on their number and backpressure (docs/events.md, "Limits")
      const connection = streamConnection(res, {
        perConnection: env.EVENTS_MAX_SUBSCRIPTIONS_PER_CONNECTION,
        maxBuffered: env.EVENTS_MAX_BUFFERED_BYTES,
        waiting: services.events,
      });
      return {
        svc,
        principal,
        token,
        ip: clientIp(req, env.TRUST_PROXY),
        socketAddress: req.socket.remoteAddress ?? null,
        userAgent: req.headers['user-agent'] ?? null,
        requestId: requestIdOf(req),
        transport: 'ws',
        setSessionCookie() {},
        setHeader() {},
        connection,
      };
    },
  });

  services.corker.track(server);
  const socketIo = attachSocketIo(server, { svc, bus: services.events, corsOrigins, originPolicy });
  io = socketIo;
  await app.ready();
  const internalMetrics = env.METRICS_PORT ? metricsServer(metrics) : null;

  return {
    server,
    svc,
    dbHandle,
    openapi,
    mailWorker: services.mailWorker,
    /** this instance's event bus */
    events: services.events,
    /** the proposal status scheduler, for tests that drive it with `tick()` */
    scheduler: services.scheduler,
    metrics,
    async listen(port = env.PORT, host = env.HOST): Promise<number> {
      await app.listen({ port, host });
      if (internalMetrics)
        await new Promise<void>((resolve, reject) => {
          internalMetrics.once('error', reject);
          // it asks no credentials: on METRICS_HOST (loopback by default), never the API's interfaces
          internalMetrics.listen(env.METRICS_PORT, env.METRICS_HOST, () => resolve());
        });
      const addr = server.address();
      return typeof addr === 'object' && addr ? addr.port : port;
    },
    /** stop being ready (503 on /ready) while still serving: the first step of a shutdown */
    drain() {
      draining = true;
    },
    /**
     * A graceful stop (docs/operations.md, "Shutdown"): not ready and no new requests (503 SHUTTING_DOWN),
     * WebSocket clients told to reconnect elsewhere (they resume by last event id), requests in flight
     * finished (their votes commit: the services still run), then the background work (queued votes
     * committed first) and the database. Connections still busy after SHUTDOWN_TIMEOUT less 2 s are cut.
     */
    async close() {
      draining = true;
      closing = true;
      internalMetrics?.close();
      wsHandler.broadcastReconnectNotification();
      for (const client of wss.clients) client.terminate();
      wss.close();
      await closeSocketIo(socketIo);
      const cut = setTimeout(
        () => server.closeAllConnections(),
        Math.max(1_000, env.SHUTDOWN_TIMEOUT - 2_000),
      );
      cut.unref();
      await app.close();
      clearTimeout(cut);
      await services.stop();
      await dbHandle.close();
    },
  };
}

export type App = Awaited<ReturnType<typeof createApp>>;
