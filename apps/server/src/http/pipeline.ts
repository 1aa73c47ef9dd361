import { type Access, type ApiServices, listOperations, type RateBudget } from '@plenum/api';
import { AppError, type Principal } from '@plenum/core';
import type { Availability } from '@plenum/db';
import type { AnyRouter } from '@trpc/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticate } from './authenticate';
import { databaseUnavailable, errorReply, psaErrorBody, trpcErrorBody, trpcProcedures } from './errors';
import type { Metrics } from './metrics';
import { assertCleanQuery } from './query-check';
import type { RateLimiter } from './rate-limit';
import { clientIp, isHttps } from './request-info';
import type { RequestLoad } from './request-load';

export interface RequestState {
  principal: Principal | null;
  /** the credential, when it resolved to a principal */
  token: string | null;
  ip: string;
  /** the request came over TLS, to this server or (with TRUST_PROXY) to the proxy before it */
  https: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    plenum: RequestState | null;
  }
  interface FastifyContextConfig {
    /** a system path (health, API docs): no credentials, no rate limit, answered while the database is down */
    system?: boolean;
    access?: Access;
    rateLimit?: RateBudget;
    errorFormat?: 'psa';
    /** a REST path: the procedure it calls, and its OpenAPI path (the metrics label) */
    procedure?: string;
    openapiPath?: string;
  }
}

export interface PipelineOptions {
  /** the instance is stopping: new requests are refused */
  closing: () => boolean;
  metrics: Metrics;
  svc: ApiServices;
  router: AnyRouter;
  availability: Availability;
  rateLimiter: RateLimiter;
  /** who the caller is (authenticate.ts) */
  authenticate: Authenticate;
  trustProxy: boolean;
  /** the most calls one tRPC HTTP batch may hold (TRPC_MAX_BATCH) */
  maxBatch: number;
  /** counts the answered requests, which background work yields to */
  load: RequestLoad;
}

/**
 * The request pipeline every HTTP request goes through, whatever answers it (a procedure over tRPC or
 * REST, a plain route, the 404): request id, database availability, the CSRF guard, the caller from
 * the credential, the rate-limit budgets, the request log; and the one place errors are answered
 * (http/errors.ts). Policies come from each operation's declaration: a procedure's meta, a plain
 * route's config (docs/api.md; docs/architecture.md, "The service container and each operation's policy").
 */
export function installPipeline(app: FastifyInstance, o: PipelineOptions) {
  const log = o.svc.log;
  // the procedures that spend the stricter auth budget, however they are reached (tRPC or REST)
  const authProcedures = new Set(
    listOperations(o.router)
      .filter((op) => op.meta.rateLimit === 'auth')
      .map((op) => op.path),
  );
  /**
   * The procedures this request will call, as the routers resolve them (never the raw path, which a
   * client spells as it likes: /AUTH/LOGIN, /auth/login/, /trpc/auth%2Elogin): tRPC takes the route's
   * decoded :path parameter and decodes it once more, a REST path names its procedure (rest.ts).
   */
  const proceduresOf = (request: FastifyRequest): string[] => {
    const url = request.routeOptions.url;
    if (url === '/trpc/:path') {
      const param = (request.params as { path?: string }).path ?? '';
      try {
        return decodeURIComponent(param).split(',');
      } catch {
        return [param];
      }
    }
    const procedure = request.routeOptions.config.procedure;
    return procedure ? [procedure] : [];
  };

  app.decorateRequest('plenum', null);
  app.decorateRequest('metricsRoute', null);
  const procedures = new Set(listOperations(o.router).map((op) => op.path));
  /** a bounded route label: never a raw path, which would give every id its own series */
  const routeLabel = (request: FastifyRequest): string => {
    const url = request.routeOptions.url;
    if (url === '/trpc/:path') {
      const calls = trpcProcedures(pathOf(request));
      if (calls.length > 1) return '/trpc (batch)';
      return calls[0] && procedures.has(calls[0]) ? `/trpc/${calls[0]}` : 'unmatched';
    }
    if (url === '/*') return 'unmatched'; // rest.ts's 404 for every other path
    return request.routeOptions.config.openapiPath ?? url ?? 'unmatched';
  };

  // while stopping, every response closes its connection: a request that was in flight when the stop
  // began would otherwise leave an idle keep-alive socket open for keepAliveTimeout (72 s), and the stop
  // waits for it until SHUTDOWN_TIMEOUT cuts it
  app.addHook('onSend', async (_request, reply, payload) => {
    if (o.closing()) reply.header('Connection', 'close');
    return payload;
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    request.metricsRoute = routeLabel(request);
    const config = request.routeOptions.config;
    if (request.method === 'OPTIONS' || config.system) return;
    if (o.closing()) {
      reply.header('Connection', 'close');
      throw new AppError('SERVICE_UNAVAILABLE', 'This instance is shutting down; try again', {
        reason: 'SHUTTING_DOWN',
      });
    }
    if (!o.availability.up) throw databaseUnavailable();
    const auth = await o.authenticate(request.raw, { requestId: request.id });
    if (!auth.ok && auth.reason === 'CSRF')
      throw new AppError(
        'FORBIDDEN',
        'Cross-origin request with the session cookie refused: use a Bearer token',
        {
          reason: 'CSRF',
        },
      );
    assertCleanQuery(request.raw.url);
    if (!auth.ok && auth.reason === 'DATABASE_UNAVAILABLE') throw databaseUnavailable();
    // over HTTP no credential, or one that names no one, is an anonymous caller: each operation decides
    const principal = auth.ok ? auth.principal : null;
    const token = auth.ok ? auth.token : null;
    const ip = clientIp(request.raw, o.trustProxy);
    request.plenum = { principal, token, ip, https: isHttps(request.raw, o.trustProxy) };

    const calls = trpcProcedures(pathOf(request));
    const called = proceduresOf(request);
    // a batch is answered as one request but does the work of each call: it is capped, each call counts
    // against every budget, and a guessing procedure never rides in one (docs/api.md, "Rate limits")
    if (called.length > 1) {
      if (called.length > o.maxBatch)
        throw new AppError('BAD_REQUEST', `A tRPC batch may hold at most ${o.maxBatch} calls`, {
          reason: 'BATCH_TOO_LARGE',
        });
      const lone = called.find((c) => authProcedures.has(c));
      if (lone)
        throw new AppError('BAD_REQUEST', `${lone} cannot be batched with other calls: send it alone`, {
          reason: 'BATCH_NOT_ALLOWED',
        });
    }
    const authBudget = config.rateLimit === 'auth' || called.some((c) => authProcedures.has(c));
    const decision = await o.rateLimiter.check({
      ip,
      userId: principal?.userId ?? null,
      authBudget,
      points: Math.max(1, called.length),
      setHeader: (name, value) => reply.header(name, value),
    });
    if (!decision.ok)
      throw new AppError('TOO_MANY_REQUESTS', 'Too many requests; slow down', {
        reason: 'RATE_LIMITED',
        retryAfterSeconds: decision.retryAfterSeconds,
      });
    // tRPC calls carry JSON: other bodies (form data, which tRPC would read whole) are refused unread
    const type = request.headers['content-type'];
    if (calls.length && type && !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type))
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Unsupported content-type "${type}"`, {
        reason: 'UNSUPPORTED_MEDIA_TYPE',
      });
  });

  app.addHook('onResponse', async (request, reply) => {
    // any 503 means a connection failed somewhere: probe, and fail the next requests fast if it is down
    if (reply.statusCode === 503 && !request.routeOptions.config.system) o.availability.suspect();
    o.metrics.observe(request, reply.statusCode, reply.elapsedTime / 1000);
    o.load.answered++;
    log.info(
      {
        requestId: request.id,
        method: request.method,
        path: pathOf(request),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });

  app.setNotFoundHandler(async (request) => {
    throw new AppError('NOT_FOUND', `No route for ${request.method} ${pathOf(request)}`);
  });

  app.setErrorHandler(async (err, request, reply) => {
    const answer = errorReply(err);
    // a failure after the client left (a read cut short by its going) is no fault to raise an alarm about
    if (answer.unexpected && request.raw.socket?.destroyed)
      log.debug({ err, requestId: request.id }, 'request failed after the client went away');
    else if (answer.unexpected) log.error({ err, requestId: request.id }, 'request failed');
    else if (answer.lockConflict) log.warn({ err, requestId: request.id }, 'lock conflict answered 503');
    // a tRPC client reads only tRPC-shaped errors: answers given before tRPC runs take that shape there
    const calls = trpcProcedures(pathOf(request));
    const body =
      request.routeOptions.config.errorFormat === 'psa'
        ? psaErrorBody(answer)
        : calls.length
          ? trpcErrorBody(answer, calls, (request.query as { batch?: string } | undefined)?.batch === '1')
          : answer.body;
    drain(request);
    if (reply.sent || reply.raw.headersSent) return void reply.raw.destroy();
    return reply.code(answer.status).headers(answer.headers).send(body);
  });
}

export const pathOf = (request: FastifyRequest) => {
  const q = request.url.indexOf('?');
  return q === -1 ? request.url : request.url.slice(0, q);
};

/**
 * A refusal answered while the body still arrives (an upload over the size limit): the rest is read and
 * dropped for up to 5 s so the client can read the answer, then the connection is closed. Closing at
 * once would make the kernel reset the connection over the unread bytes, and a client still sending
 * would see ECONNRESET instead of the answer.
 */
function drain(request: FastifyRequest) {
  const req = request.raw;
  if (req.readableEnded || req.complete) return;
  req.unpipe();
  const timer = setTimeout(() => req.socket.destroy(), 5_000);
  timer.unref();
  req.on('end', () => clearTimeout(timer));
  req.resume();
}
