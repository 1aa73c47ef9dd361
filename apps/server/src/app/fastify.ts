import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Env } from '../env';
import { requestIdOf } from '../http/request-info';
import { guardSlowClients } from '../http/slow-clients';

/** The Fastify instance with its deadlines and the slow-client guard around its HTTP server. */
export function createFastify(env: Env): FastifyInstance {
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
  return app;
}

/** the origins a browser may call the API from: the web app's and CORS_ORIGINS */
export const corsOriginsOf = (env: Env) => [new URL(env.APP_URL).origin, ...env.CORS_ORIGINS];

/** CORS for the web app's origins, and the cookie plugin the session cookie is set with. */
export async function registerCors(app: FastifyInstance, env: Env) {
  await app.register(cors, {
    origin: corsOriginsOf(env),
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'trpc-accept'],
    exposedHeaders: [
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
      'X-Request-Id',
      // a download the web app fetches with its Bearer token (the audit log export) keeps the API's file name
      'Content-Disposition',
    ],
    maxAge: 600,
    strictPreflight: false,
  });
  // the credential is read by the pipeline itself (request-info.ts), so cookies are not parsed per request
  await app.register(cookie, { hook: false });
}
