import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { type ApiServices, appRouter, type Context } from '@plenum/api';
import {
  applyAdminEmails,
  type Clock,
  type CoreConfig,
  createLogger,
  dummyPasswordHash,
  type Logger,
  type Principal,
  resolveToken,
  systemClock,
} from '@plenum/core';
import { createDb, type DbHandle } from '@plenum/db';
import { TRPCError } from '@trpc/server';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import type { Env } from './env';
import { isCrossOriginCookieRequest, trustedOrigins } from './http/csrf';
import { serveDocs } from './http/docs';
import { buildOpenApiDocument } from './http/openapi';
import { AUTH_PROCEDURES, createRateLimiter, trpcProcedures } from './http/rate-limit';
import { clientIp, credentialOf, isHttps, requestIdOf, sessionCookie } from './http/request-info';
import { refuseUnexpectedBody, sendError, sendJson, sendTrpcError } from './http/respond';
import { createRestHandler } from './http/rest';
import { compileRoute, matchRoute, type ServerPlugin } from './http/routes';
import { createPlugins } from './plugins';
import { VERSION } from './version';
import { resendTransport, startMailWorker } from './workers/mail';

export interface AppOptions {
  env: Env;
  clock?: Clock;
  logger?: Logger;
  /** PGlite location override (tests use 'memory://') */
  pgliteDir?: string;
  /** test hook: replace or extend the domain plugins */
  plugins?: (ctx: Parameters<typeof createPlugins>[0]) => Promise<ServerPlugin[]>;
}

interface RequestState {
  principal: Principal | null;
  token: string | null;
  ip: string;
  requestId: string;
}

type PlenumRequest = IncomingMessage & { plenum?: RequestState; body?: unknown };

/** a 503 tells the client when to try again (docs/operations.md, "Database outages") */
const RETRY_AFTER = { 'Retry-After': '1' };
const isUnavailable = (e: { code: string }) => e.code === 'SERVICE_UNAVAILABLE';

export function coreConfigFromEnv(env: Env): CoreConfig {
  return {
    appUrl: env.APP_URL,
    passwordPolicy: {
      minLength: env.PASSWORD_MIN_LENGTH,
      maxLength: env.PASSWORD_MAX_LENGTH,
      requireUppercase: env.PASSWORD_REQUIRE_UPPERCASE,
      requireLowercase: env.PASSWORD_REQUIRE_LOWERCASE,
      requireNumbers: env.PASSWORD_REQUIRE_NUMBERS,
      requireSpecialChars: env.PASSWORD_REQUIRE_SPECIAL,
    },
    sessionTtlMs: env.SESSION_TTL,
    verificationTokenTtlMs: env.VERIFICATION_TOKEN_EXPIRY,
    passwordResetTokenTtlMs: env.PASSWORD_RESET_TOKEN_EXPIRY,
    emailVerificationRequired: env.EMAIL_VERIFICATION_REQUIRED,
    loginThrottle: { freeFailures: env.LOGIN_FAILURES_BEFORE_BACKOFF, maxBackoffMs: env.LOGIN_BACKOFF_MAX },
    adminEmails: env.adminEmails,
    siweChainIds: env.siweChainIds,
    siweRpcUrl: env.SIWE_RPC_URL,
    mailFrom: env.MAIL_FROM,
    users: {
      allowPublicProfiles: env.ALLOW_PUBLIC_PROFILES,
      enableProfilePictures: env.ENABLE_PROFILE_PICTURES,
      enableBio: env.ENABLE_BIO,
      enableSocialLinks: env.ENABLE_SOCIAL_LINKS,
      maxBioLength: env.MAX_BIO_LENGTH,
      maxAvatarSize: env.MAX_AVATAR_SIZE,
      allowedImageTypes: env.ALLOWED_IMAGE_TYPES.map((t) => t.toLowerCase()),
      uploadPath: env.uploadPath,
    },
    governance: { daoApprovalRequired: env.DAO_APPROVAL_REQUIRED },
    storage: {
      gatewayUrls: env.IPFS_GATEWAY_URLS,
      timeoutMs: env.IPFS_TIMEOUT,
      pinBroadcast: env.IPFS_PIN_BROADCAST,
      maxFileSize: env.MAX_FILE_SIZE,
      allowedFileTypes: env.ALLOWED_FILE_TYPES.map((t) => t.toLowerCase()),
      maxContentBytes: 10 * 1024 * 1024,
      publicUrl: env.publicUrl,
    },
  };
}

export async function createApp(options: AppOptions) {
  const { env } = options;
  const log = options.logger ?? createLogger({ level: env.LOG_LEVEL });
  const dbHandle: DbHandle = await createDb({
    databaseUrl: env.DATABASE_URL,
    dataDir: options.pgliteDir ?? path.join(env.dataDir, 'pg'),
    maxConnections: env.DATABASE_POOL_SIZE,
    connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT,
  });
  const dbAvailability = dbHandle.availability;
  await dbHandle.migrate();

  const svc: ApiServices = {
    db: dbHandle.db,
    config: coreConfigFromEnv(env),
    clock: options.clock ?? systemClock,
    log,
    emailProviderConfigured: Boolean(env.RESEND_API_KEY),
    version: VERSION,
  };
  await applyAdminEmails(svc);
  void dummyPasswordHash(); // ready before the first login, so unknown emails cost no extra time

  const plugins = await (options.plugins ?? createPlugins)({ svc, dbHandle, env });
  const routes = plugins.flatMap((p) => p.routes ?? []).map(compileRoute);
  let openapiDoc: unknown;
  const openapi = () => {
    if (!openapiDoc) {
      const doc = buildOpenApiDocument(
        appRouter,
        VERSION,
        env.APP_URL.replace(/:\d+$/, `:${env.PORT}`),
        plugins.flatMap((p) => (p.openapiPaths ? [p.openapiPaths] : [])),
      );
      // the development outbox answers 404 once an email provider is configured: not part of the API then
      if (env.RESEND_API_KEY && doc.paths) delete doc.paths['/dev/outbox'];
      openapiDoc = doc;
    }
    return openapiDoc;
  };

  const rateLimiter = createRateLimiter(dbHandle.db, {
    perMinute: env.RATE_LIMIT_PER_MINUTE,
    authPerMinute: env.RATE_LIMIT_AUTH_PER_MINUTE,
    disabled: env.RATE_LIMIT_DISABLED,
  });
  const secureCookies = env.APP_URL.startsWith('https:');
  const allowedOrigins = new Set([new URL(env.APP_URL).origin, ...env.CORS_ORIGINS]);
  const originPolicy = { trusted: trustedOrigins(env.APP_URL, env.CORS_ORIGINS, env.publicUrl) };

  function contextFor(
    req: PlenumRequest,
    res: ServerResponse | null,
    transport: Context['transport'],
  ): Context {
    const state = req.plenum!;
    return {
      svc,
      principal: state.principal,
      token: state.token,
      ip: state.ip,
      userAgent: req.headers['user-agent'] ?? null,
      requestId: state.requestId,
      transport,
      setSessionCookie(token, { maxAgeSeconds }) {
        // Secure whenever the app or this request is on https (docs/api.md, "Cross-site requests")
        const secure = secureCookies || isHttps(req, env.TRUST_PROXY);
        res?.appendHeader('Set-Cookie', sessionCookie(token, maxAgeSeconds, secure));
      },
      setHeader(name, value) {
        res?.setHeader(name, value);
      },
    };
  }

  const rest = createRestHandler(
    appRouter,
    ({ req, res }: { req: IncomingMessage; res: ServerResponse }) =>
      contextFor(req as PlenumRequest, res, 'rest'),
    env.MAX_JSON_BODY,
  );
  const trpcHttp = createHTTPHandler({
    router: appRouter,
    basePath: '/trpc/',
    createContext: ({ req, res }) => contextFor(req as PlenumRequest, res, 'trpc'),
    maxBodySize: env.MAX_JSON_BODY,
    responseMeta: ({ errors }) => (errors.some(isUnavailable) ? { headers: RETRY_AFTER } : {}),
  });

  async function handle(req: PlenumRequest, res: ServerResponse) {
    const started = performance.now();
    const requestId = requestIdOf(req);
    const ip = clientIp(req, env.TRUST_PROXY);
    res.setHeader('X-Request-Id', requestId);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const pathname = url.pathname;
    const method = req.method ?? 'GET';
    res.on('finish', () => {
      // any 503 means a connection failed somewhere: probe, and fail the next requests fast if it is down
      if (res.statusCode === 503) dbAvailability.suspect();
      log.info(
        {
          requestId,
          method,
          path: pathname,
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
        },
        'request',
      );
    });

    const origin = req.headers.origin;
    if (origin && allowedOrigins.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Vary', 'Origin');
      res.setHeader(
        'Access-Control-Expose-Headers',
        'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id',
      );
    }
    if (method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Request-Id, trpc-accept');
      res.setHeader('Access-Control-Max-Age', '600');
      res.statusCode = 204;
      res.end();
      return;
    }

    // system paths: no credentials, no rate limit
    if (pathname === '/health' && (method === 'GET' || method === 'HEAD')) {
      // within ~500 ms whatever the database does: a known outage answers at once, else a ping with a deadline
      const dbOk = dbAvailability.up && (await dbAvailability.check());
      const ipfsHealth = svc.ipfsHealth as (() => Promise<{ provider: string; ok: boolean }>) | undefined;
      const ipfs = ipfsHealth
        ? await ipfsHealth().catch(() => ({ provider: 'unknown', ok: false }))
        : { provider: 'none', ok: false };
      const body = { status: dbOk ? 'ok' : 'degraded', version: VERSION, db: dbOk ? 'ok' : 'down', ipfs };
      return sendJson(res, dbOk ? 200 : 503, body, { 'Cache-Control': 'no-store' });
    }
    if (pathname === '/api/docs-json' && method === 'GET') return sendJson(res, 200, openapi());
    if (pathname.startsWith('/api/docs') && method === 'GET' && serveDocs(pathname, res)) return;

    // a tRPC client reads only tRPC-shaped errors: answers given before tRPC runs take that shape there
    const calls = trpcProcedures(pathname);
    const refuse = (
      code: 'SERVICE_UNAVAILABLE' | 'TOO_MANY_REQUESTS' | 'FORBIDDEN',
      message: string,
      extra: { reason: string; headers?: Record<string, string> },
    ) =>
      calls.length
        ? sendTrpcError(res, calls, url.searchParams.get('batch') === '1', code, message, extra)
        : sendError(res, code, message, extra);

    if (!dbAvailability.up) {
      return refuse('SERVICE_UNAVAILABLE', 'The database is unreachable', {
        reason: 'DATABASE_UNAVAILABLE',
        headers: { 'Retry-After': '1' },
      });
    }
    if (isCrossOriginCookieRequest(req, originPolicy)) {
      return refuse('FORBIDDEN', 'Cross-origin request with the session cookie refused: use a Bearer token', {
        reason: 'CSRF',
      });
    }

    const token = credentialOf(req);
    let principal: Principal | null = null;
    try {
      principal = token ? await resolveToken(svc, token) : null;
    } catch (err) {
      log.error({ err, requestId }, 'credential lookup failed');
      return refuse('SERVICE_UNAVAILABLE', 'The database is unreachable', {
        reason: 'DATABASE_UNAVAILABLE',
        headers: { 'Retry-After': '1' },
      });
    }
    req.plenum = { principal, token: principal ? token : null, ip, requestId };

    const routeKey = `${method} ${pathname.replace(/\/+$/, '') || '/'}`;
    const decision = await rateLimiter.check({
      ip,
      userId: principal?.userId ?? null,
      routeKey,
      authCall: calls.some((c) => AUTH_PROCEDURES.has(c)),
      res,
    });
    if (!decision.ok) {
      return refuse('TOO_MANY_REQUESTS', 'Too many requests; slow down', {
        reason: 'RATE_LIMITED',
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      });
    }

    if (pathname === '/trpc' || pathname.startsWith('/trpc/')) return trpcHttp(req, res);

    const match = matchRoute(routes, method, pathname);
    if (match) {
      if ((match.route.noBody || method === 'DELETE') && !(await refuseUnexpectedBody(req, res))) return;
      return match.route.handler({
        req,
        res,
        params: match.params,
        query: url.searchParams,
        principal,
        token: req.plenum.token,
        ip,
        requestId,
        svc,
        log: log.child({ requestId }),
      });
    }

    if (method === 'DELETE' && !(await refuseUnexpectedBody(req, res))) return;
    await rest(req, res, () => sendError(res, 'NOT_FOUND', `No route for ${method} ${pathname}`));
  }

  const server: Server = createServer((req, res) => {
    handle(req as PlenumRequest, res).catch((err: unknown) => {
      log.error({ err }, 'unhandled request error');
      if (!res.headersSent) sendError(res, 'INTERNAL_SERVER_ERROR', 'Internal server error');
      else res.end();
    });
  });
  server.requestTimeout = 0; // long uploads stream; idle sockets are closed by headersTimeout/keepAlive

  // tRPC subscriptions over WebSocket on the same port and path; { token } in connectionParams
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
    async createContext({ req, info }) {
      const params = info.connectionParams as { token?: unknown } | null;
      const given = typeof params?.token === 'string' ? params.token : null;
      if (!given && isCrossOriginCookieRequest(req, originPolicy, { stream: true }))
        throw new TRPCError({
          code: 'FORBIDDEN',
          message: 'Cross-origin connection with the session cookie refused',
        });
      const token = given ?? credentialOf(req);
      const principal = token ? await resolveToken(svc, token) : null;
      if (!principal)
        throw new TRPCError({ code: 'UNAUTHORIZED', message: 'A valid session or access token is required' });
      const r = req as PlenumRequest;
      r.plenum = { principal, token, ip: clientIp(req, env.TRUST_PROXY), requestId: requestIdOf(req) };
      return contextFor(r, null, 'ws');
    },
  });

  for (const p of plugins) await p.attach?.(server);

  const mailWorker = startMailWorker(svc, env.RESEND_API_KEY ? resendTransport(env.RESEND_API_KEY) : null);

  return {
    server,
    svc,
    dbHandle,
    openapi,
    mailWorker,
    listen(port = env.PORT, host = env.HOST): Promise<number> {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const addr = server.address();
          resolve(typeof addr === 'object' && addr ? addr.port : port);
        });
      });
    },
    async close() {
      wsHandler.broadcastReconnectNotification();
      for (const client of wss.clients) client.terminate();
      wss.close();
      await mailWorker.stop();
      for (const p of [...plugins].reverse())
        await p.stop?.().catch((err: unknown) => log.warn({ err }, `stopping ${p.name} failed`));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await dbHandle.close();
    },
  };
}

export type App = Awaited<ReturnType<typeof createApp>>;
