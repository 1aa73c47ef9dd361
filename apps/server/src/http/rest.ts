import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from '@plenum/api';
import { type AppRouter, zodIssuesToFieldIssues } from '@plenum/api';
import type { FieldIssue } from '@plenum/core';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { readBody, sendError } from './respond';

type CreateContext = (opts: { req: IncomingMessage; res: ServerResponse }) => Context;

/** success status per procedure path, from each procedure's meta */
function successStatuses(router: AppRouter): Map<string, number> {
  const map = new Map<string, number>();
  for (const [path, proc] of Object.entries(router._def.procedures)) {
    const meta = (proc as unknown as { _def: { meta?: { successStatus?: number } } })._def.meta;
    if (meta?.successStatus) map.set(path, meta.successStatus);
  }
  return map;
}

interface PathRoute {
  pattern: RegExp;
  params: string[];
}

const firstSegment = (path: string) => path.split('/')[1] ?? '';

/**
 * Matchers for every REST route, by method and first path segment (so a request tries only a few);
 * a literal segment never starts with `{` here, so the first segment is always literal.
 */
function pathRoutes(router: AppRouter): Map<string, PathRoute[]> {
  const routes = new Map<string, PathRoute[]>();
  for (const proc of Object.values(router._def.procedures)) {
    const meta = (proc as unknown as { _def: { meta?: { openapi?: { method: string; path: string } } } })._def
      .meta?.openapi;
    if (!meta) continue;
    const params = [...meta.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const source = meta.path
      .split(/\{\w+\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('[^/]+');
    const key = `${meta.method.toUpperCase()} ${firstSegment(meta.path)}`;
    const list = routes.get(key) ?? [];
    list.push({ pattern: new RegExp(`^${source}/?$`), params });
    routes.set(key, list);
  }
  // a literal route wins over a parameter that would match the same text (/users/verify-email)
  for (const list of routes.values()) list.sort((a, b) => a.params.length - b.params.length);
  return routes;
}

interface RawErrorBody {
  code?: string;
  message?: string;
  reason?: string;
  fieldIssues?: FieldIssue[];
  issues?: { path: PropertyKey[]; message: string; code?: string }[];
}

/** trpc-to-openapi's error body, reshaped to `{ code, reason?, message, issues? }` (docs/api.md, "Errors") */
function reshapeError(raw: RawErrorBody) {
  const issues = raw.fieldIssues ?? (raw.issues ? zodIssuesToFieldIssues(raw.issues) : undefined);
  const code = raw.code === 'PARSE_ERROR' ? 'BAD_REQUEST' : (raw.code ?? 'INTERNAL_SERVER_ERROR');
  let message = raw.message ?? 'Error';
  // trpc-to-openapi leaves the quote of its 415 message open
  if (/^Unsupported content-type "[^"]*$/.test(message)) message += '"';
  if (message === 'Input validation failed' && issues?.length) {
    message = `Invalid input: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`;
  }
  const reason = raw.reason ?? (raw.issues ? 'VALIDATION_FAILED' : undefined);
  return { code, ...(reason ? { reason } : {}), message, ...(issues?.length ? { issues } : {}) };
}

export function createRestHandler(router: AppRouter, createContext: CreateContext, maxJsonBody: number) {
  const statuses = successStatuses(router);
  const routes = pathRoutes(router);
  /** body keys that name a path parameter of the route: the path says which resource, never the body */
  const pathKeysIn = (method: string, url: string, body: object) => {
    const pathname = url.split('?')[0]!;
    const route = routes.get(`${method} ${firstSegment(pathname)}`)?.find((r) => r.pattern.test(pathname));
    return route ? route.params.filter((p) => Object.hasOwn(body, p)) : [];
  };
  const handler = createOpenApiNodeHttpHandler({
    router,
    createContext: ({ req, res }) => createContext({ req, res: res as ServerResponse }),
    maxBodySize: maxJsonBody,
    responseMeta({ paths, errors }) {
      // a 503 tells the client when to try again (docs/operations.md, "Database outages")
      if (errors.some((e) => e.code === 'SERVICE_UNAVAILABLE')) return { headers: { 'Retry-After': '1' } };
      if (errors.length || !paths?.[0]) return {};
      const status = statuses.get(paths[0]);
      return status ? { status } : {};
    },
  });

  return async (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: () => void) => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'DELETE' && method !== 'HEAD') {
      // Parse the body here: any JSON media type and charset, a size cap, no body at all for POSTs that take none.
      let raw: Buffer;
      try {
        raw = await readBody(req, maxJsonBody);
      } catch (err) {
        if ((err as Error).message === 'TOO_LARGE')
          return sendError(res, 'PAYLOAD_TOO_LARGE', `Request body exceeds ${maxJsonBody} bytes`);
        return sendError(res, 'BAD_REQUEST', 'Could not read the request body');
      }
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (raw.length === 0) {
        req.body = undefined;
        req.headers['content-type'] = 'application/json';
      } else if (type === 'application/json' || type.endsWith('+json')) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw.toString('utf8'));
        } catch {
          return sendError(res, 'BAD_REQUEST', 'The request body is not valid JSON', {
            reason: 'MALFORMED_JSON',
          });
        }
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
          return sendError(res, 'BAD_REQUEST', 'The request body must be a JSON object', {
            reason: 'MALFORMED_JSON',
          });
        }
        const clash = pathKeysIn(method, req.url ?? '/', parsed);
        if (clash.length) {
          return sendError(
            res,
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
        }
        req.body = parsed;
        req.headers['content-type'] = 'application/json';
      } else {
        req.body = undefined;
        req.headers['content-type'] = type || 'missing';
      }
    }

    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    (res as { end: (...args: unknown[]) => ServerResponse }).end = (chunk?: unknown, ...rest: unknown[]) => {
      if (res.statusCode === 204) {
        res.removeHeader('Content-Type');
        return end(undefined, ...rest.filter((r) => typeof r === 'function'));
      }
      if (res.statusCode >= 400 && typeof chunk === 'string') {
        try {
          const body = reshapeError(JSON.parse(chunk) as RawErrorBody);
          res.setHeader('Content-Type', 'application/json; charset=utf-8');
          return end(JSON.stringify(body), ...rest);
        } catch {
          // not JSON: leave as is
        }
      } else if (typeof chunk === 'string' && res.getHeader('Content-Type') === 'application/json') {
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
      }
      return end(chunk, ...rest);
    };
    await handler(req, res, next);
  };
}
