import { type Context, listOperations, zodIssuesToFieldIssues } from '@plenum/api';
import { AppError } from '@plenum/core';
import type { AnyRouter } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createProcedureCache, fastifyTRPCOpenApiPlugin, normalizePath } from 'trpc-to-openapi';
import { OtherBody, refuseBody, useBodyParsers } from './body';
import { restErrorBody } from './errors';

type CreateContext = (request: FastifyRequest, reply: FastifyReply) => Context;

interface PathRoute {
  pattern: RegExp;
  params: string[];
  /** the OpenAPI path, e.g. /votes/proposal/{proposalId} */
  template: string;
}

const firstSegment = (path: string) => path.split('/')[1] ?? '';

/**
 * Matchers for every REST path, by method and first path segment (so a request tries only a few); a
 * literal segment never starts with `{` here, so the first segment is always literal.
 */
function pathRoutes(router: AnyRouter): Map<string, PathRoute[]> {
  const routes = new Map<string, PathRoute[]>();
  for (const { meta } of listOperations(router)) {
    if (!meta.openapi) continue;
    const { method, path } = meta.openapi;
    const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const source = path
      .split(/\{\w+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+');
    const key = `${method} ${firstSegment(path)}`;
    const list = routes.get(key) ?? [];
    list.push({ pattern: new RegExp(`^${source}/?$`), params, template: path });
    routes.set(key, list);
  }
  // a literal route wins over a parameter that would match the same text (/users/verify-email)
  for (const list of routes.values()) list.sort((a, b) => a.params.length - b.params.length);
  return routes;
}

/** the REST path template a request matches (for metrics labels), or null */
export function restTemplates(router: AnyRouter) {
  const routes = pathRoutes(router);
  return (method: string, pathname: string) =>
    routes.get(`${method} ${firstSegment(pathname)}`)?.find((r) => r.pattern.test(pathname))?.template ??
    null;
}

/**
 * The procedure a REST request will call, found by trpc-to-openapi's own matcher on the path exactly as
 * its handler reads it (case-insensitive, one trailing slash ignored, percent-encoding kept): the
 * rate-limit budgets must follow the route the router takes, whatever the spelling (docs/api.md,
 * "Rate limits").
 */
export function restProcedureOf(router: AnyRouter) {
  const find = createProcedureCache(router as never);
  return (method: string, url: string): string | null => {
    try {
      const pathname = new URL(url.startsWith('/') ? `http://127.0.0.1${url}` : url).pathname;
      return find(method as 'GET', normalizePath(pathname))?.procedure?.path ?? null;
    } catch {
      return null;
    }
  };
}

/**
 * The procedures as REST paths (trpc-to-openapi's Fastify adapter, docs/api.md): bodies read by the
 * server's parsers, a body key that names a path parameter refused (the path says which resource, never
 * the body), each procedure's success status from its meta, and trpc-to-openapi's error bodies reshaped
 * to the one error body.
 */
export function registerRest(
  app: FastifyInstance,
  options: { router: AnyRouter; createContext: CreateContext },
) {
  const statuses = new Map<string, number>();
  for (const op of listOperations(options.router))
    if (op.meta.successStatus) statuses.set(op.path, op.meta.successStatus);
  const routes = pathRoutes(options.router);
  const pathKeysIn = (method: string, url: string, body: object) => {
    const pathname = url.split('?')[0]!;
    const route = routes.get(`${method} ${firstSegment(pathname)}`)?.find((r) => r.pattern.test(pathname));
    return route ? route.params.filter((p) => Object.hasOwn(body, p)) : [];
  };

  return app.register(async (scope) => {
    useBodyParsers(scope, 'read');
    scope.addHook('preHandler', async (request) => {
      const method = request.method;
      if (method === 'GET' || method === 'HEAD') return;
      if (method === 'DELETE') return refuseBody(request);
      const body = request.body;
      if (body instanceof OtherBody) {
        // not JSON: the procedure answers 415 naming the type
        request.body = undefined;
        request.headers['content-type'] = body.type || 'missing';
        return;
      }
      request.headers['content-type'] = 'application/json';
      if (body === undefined) return;
      const clash = pathKeysIn(method, request.url, body as object);
      if (clash.length)
        throw new AppError(
          'BAD_REQUEST',
          `Unknown field in the body: ${clash.join(', ')} (set by the path)`,
          {
            reason: 'VALIDATION_FAILED',
            issues: clash.map((key) => ({
              path: key,
              message: 'not accepted in the body: the path names the resource',
              code: 'unrecognized_keys',
            })),
          },
        );
    });
    scope.addHook('onSend', async (_request, reply, payload) => {
      if (reply.statusCode === 204) {
        reply.removeHeader('Content-Type');
        return payload;
      }
      if (typeof payload !== 'string') return payload;
      if (reply.statusCode >= 400) {
        try {
          const raw = JSON.parse(payload) as Parameters<typeof restErrorBody>[0] & { data?: unknown };
          // only trpc-to-openapi's bodies carry `data`; the server's own are already in shape
          if (raw.data === undefined) return payload;
          reply.header('Content-Type', 'application/json; charset=utf-8');
          return JSON.stringify(restErrorBody(raw, zodIssuesToFieldIssues));
        } catch {
          return payload;
        }
      }
      if (reply.getHeader('Content-Type') === 'application/json')
        reply.header('Content-Type', 'application/json; charset=utf-8');
      return payload;
    });
    await scope.register(fastifyTRPCOpenApiPlugin, {
      router: options.router,
      basePath: '',
      createContext: ({ req, res }: { req: FastifyRequest; res: FastifyReply }) =>
        options.createContext(req, res),
      responseMeta({ paths, errors }: { paths?: string[]; errors: { code: string }[] }) {
        // a 503 tells the client when to try again (docs/operations.md, "Database outages")
        if (errors.some((e) => e.code === 'SERVICE_UNAVAILABLE')) return { headers: { 'Retry-After': '1' } };
        if (errors.length || !paths?.[0]) return {};
        const status = statuses.get(paths[0]);
        return status ? { status } : {};
      },
    } as never);
  });
}
