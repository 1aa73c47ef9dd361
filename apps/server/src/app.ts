import { appRouter } from '@plenum/api';
import { type Clock, createLogger, dummyPasswordHash, type Logger, systemClock } from '@plenum/core';
import { httpContext } from './app/context';
import { openDatabase } from './app/database';
import { corsOriginsOf, createFastify, registerCors } from './app/fastify';
import type { Lifecycle } from './app/lifecycle';
import { openApiDocument } from './app/openapi-document';
import { registerPlainRoutes } from './app/plain-routes';
import { shutdown } from './app/shutdown';
import { registerSystemRoutes } from './app/system-routes';
import { registerTrpc } from './app/trpc';
import { attachWebSockets, type WebSockets } from './app/websockets';
import type { Env } from './env';
import { createAuthenticator } from './http/authenticate';
import { trustedOrigins } from './http/csrf';
import { registerDocs } from './http/docs';
import { createMetrics, metricsServer, registerMetricsRoute } from './http/metrics';
import { installPipeline } from './http/pipeline';
import { createRateLimiter } from './http/rate-limit';
import { registerRest } from './http/rest';
import type { RouteSet } from './http/routes';
import { adminRoutes } from './routes/admin';
import { authRoutes } from './routes/auth';
import { governanceRoutes } from './routes/governance';
import { notificationsRoutes } from './routes/notifications';
import { storageRoutes } from './routes/storage';
import { usersRoutes } from './routes/users';
import { createServices } from './services';

export interface AppOptions {
  env: Env;
  clock?: Clock;
  logger?: Logger;
  /** PGlite location override (tests use 'memory://') */
  pgliteDir?: string;
}

/** Each domain's plain routes (beside its procedures); a domain adds one line here. */
const ROUTE_SETS: RouteSet[] = [
  authRoutes,
  usersRoutes,
  storageRoutes,
  governanceRoutes,
  notificationsRoutes,
  adminRoutes,
];

/**
 * The HTTP server (docs/architecture.md): Fastify with the request pipeline (http/pipeline.ts), the
 * procedures over tRPC (HTTP and WebSocket) and as REST paths, the plain routes, Socket.IO, the health
 * and docs pages; every part gets the one service container (services.ts). Each step is a function in
 * app/ named for what it registers.
 */
export async function createApp(options: AppOptions) {
  const { env } = options;
  const log = options.logger ?? createLogger({ level: env.LOG_LEVEL });
  const dbHandle = await openDatabase(env, options.pgliteDir);
  const services = await createServices(env, dbHandle, { clock: options.clock ?? systemClock, log });
  const { svc } = services;
  void dummyPasswordHash(); // ready before the first login, so unknown emails cost no extra time
  const openapi = openApiDocument(env, ROUTE_SETS);
  const lifecycle: Lifecycle = { draining: false, closing: false };
  const authenticate = createAuthenticator(svc, {
    trusted: trustedOrigins(env.APP_URL, env.CORS_ORIGINS, env.publicUrl),
  });

  const app = createFastify(env);
  await registerCors(app, env);
  let sockets: WebSockets | null = null;
  const metrics = createMetrics({
    svc,
    availability: dbHandle.availability,
    connections: () => sockets?.connections() ?? { trpc: 0, socketIo: 0 },
    votes: services.governance.batcher,
    events: services.events,
    pools: services.pools,
  });
  installPipeline(app, {
    closing: () => lifecycle.closing,
    metrics,
    svc,
    router: appRouter,
    availability: dbHandle.availability,
    rateLimiter: createRateLimiter(dbHandle.db, {
      perMinute: env.RATE_LIMIT_PER_MINUTE,
      authPerMinute: env.RATE_LIMIT_AUTH_PER_MINUTE,
      disabled: env.RATE_LIMIT_DISABLED,
    }),
    authenticate,
    trustProxy: env.TRUST_PROXY,
    maxBatch: env.TRPC_MAX_BATCH,
    load: services.requestLoad,
  });
  registerSystemRoutes(app, { svc, dbHandle, lifecycle });
  if (env.METRICS_TOKEN) registerMetricsRoute(app, metrics, env.METRICS_TOKEN);
  registerDocs(app, openapi);
  const contextFor = httpContext(svc, env);
  await registerTrpc(app, contextFor);
  await registerRest(app, { router: appRouter, createContext: (req, res) => contextFor(req, res, 'rest') });
  await registerPlainRoutes(app, ROUTE_SETS, { svc, log });
  const server = app.server;
  const attached = attachWebSockets(server, { env, services, authenticate, corsOrigins: corsOriginsOf(env) });
  sockets = attached;
  await app.ready();
  const internalMetrics = env.METRICS_PORT ? metricsServer(metrics) : null;

  return {
    server,
    svc,
    dbHandle,
    openapi,
    mailWorker: services.mailWorker,
    /** the webhook sender, for tests that drive it with `tick()` (docs/webhooks.md) */
    webhookWorker: services.webhookWorker,
    /** this instance's event bus */
    events: services.events,
    /** the proposal status scheduler, for tests that drive it with `tick()` */
    scheduler: services.scheduler,
    /** closed proposals' records to IPFS, for tests that drive it with `tick()` or stop it */
    recordPublisher: services.recordPublisher,
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
      lifecycle.draining = true;
    },
    /** a graceful stop (app/shutdown.ts) */
    close: () => shutdown({ env, app, lifecycle, sockets: attached, internalMetrics, services, dbHandle }),
  };
}

export type App = Awaited<ReturnType<typeof createApp>>;
