import type { Access, ApiServices, RateBudget } from '@plenum/api';
import { AppError, type FieldIssue, type Logger, type Principal } from '@plenum/core';
import { fieldIssue, nulCharacterIssues, type TokenScope } from '@plenum/validators';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodObject } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';

/**
 * A plain route beside the procedures (multipart uploads, raw downloads, the Pinning Service API, a status
 * that depends on the outcome). Its policy is declared here like a procedure's (docs/api.md): who may call
 * it, whether it reads a body, which rate-limit budget, which error body; the request pipeline applies it
 * before the handler runs. A handler returns the JSON body to send (after `reply.code(…)`), or the reply
 * once it sent something else, and throws `AppError`s for refusals: errors are answered in one place
 * (http/errors.ts).
 */
export interface Route {
  method: Method;
  /** OpenAPI-style template, e.g. /ipfs/file/{cid} */
  path: string;
  /** its name in the OpenAPI document, what generated clients call it */
  operationId: string;
  access: Access;
  /**
   * the scope an access token needs (docs/accounts.md, "Token scopes"): a GET's default is `read`; every
   * other method names its own (`routeScope`)
   */
  scope?: TokenScope;
  /** a public route whose answer depends on the caller when one is signed in (a private avatar) */
  optionalAuth?: true;
  /**
   * its path parameters and query: checked before the handler runs (`checkRouteInput`) and listed in the
   * OpenAPI document. A route whose query a domain checks in its own terms (the Pinning Service API's
   * filters, an unsubscribe token) lists it in its written entry instead.
   */
  params?: ZodObject;
  /**
   * the path parameter (the template's last) that takes the rest of the URL, slashes included: a file's
   * path inside a folder (docs/storage.md, "Folders and several files")
   */
  restParam?: string;
  query?: ZodObject;
  rateLimit?: RateBudget;
  /** the route reads no body: one with fields is refused before the handler runs */
  noBody?: boolean;
  /** the largest JSON body it reads (default: MAX_JSON_BODY) */
  bodyLimit?: number;
  /** errors in the Pinning Service API's body instead of the one error body */
  errorFormat?: 'psa';
  handler(rc: RouteContext): Promise<unknown>;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteContext {
  request: FastifyRequest;
  reply: FastifyReply;
  params: Record<string, string>;
  query: URLSearchParams;
  /** the caller; never null on a route whose access is not 'public' */
  principal: Principal | null;
  svc: ApiServices;
  log: Logger;
}

/**
 * A domain's plain routes and what their OpenAPI entries say beyond the route's own declaration (summary,
 * body, responses): `routeSetPaths` adds the operationId, security and parameters from the route.
 */
export interface RouteSet {
  routes: Route[];
  openapiPaths: ZodOpenApiPathsObject;
}

const BEARER = { bearerAuth: [] };

/**
 * An operation's token scope in the OpenAPI document (docs/api.md, "The OpenAPI document"): a sentence of
 * its description for people, `x-token-scope` for programs.
 */
export const documentedScope = (op: { description?: string | undefined }, scope: TokenScope) => ({
  description: [op.description, `Access tokens need the \`${scope}\` scope.`].filter(Boolean).join('\n\n'),
  'x-token-scope': scope,
});

/** the scope an access token needs for a route; a write that names none is a bug, found at start */
export function routeScope(route: Route): TokenScope {
  if (route.scope) return route.scope;
  if (route.method === 'GET') return 'read';
  throw new Error(`${route.method} ${route.path}: a write declares the token scope it needs`);
}

/** the OpenAPI entries of a domain's plain routes (docs/api.md, "The OpenAPI document") */
export function routeSetPaths(set: RouteSet): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of set.routes) {
    const method = route.method.toLowerCase() as Lowercase<Method>;
    const written = set.openapiPaths[route.path]?.[method] as ZodOpenApiOperationObject | undefined;
    if (!written) throw new Error(`${route.method} ${route.path}: no OpenAPI entry`);
    const security = route.access !== 'public' ? [BEARER] : route.optionalAuth ? [{}, BEARER] : [];
    const requestParams =
      route.params || route.query
        ? {
            ...(route.params ? { path: route.params } : {}),
            ...(route.query ? { query: route.query } : {}),
          }
        : undefined;
    paths[route.path] = {
      ...paths[route.path],
      [method]: {
        operationId: route.operationId,
        ...written,
        ...documentedScope(written, routeScope(route)),
        security,
        ...(requestParams ? { requestParams } : {}),
      },
    };
  }
  return paths;
}

/** `/ipfs/file/{cid}` → `/ipfs/file/:cid`; a rest parameter becomes Fastify's wildcard `*` */
export const fastifyPath = (template: string, restParam?: string) => {
  const path = template.replace(/\{(\w+)\}/g, ':$1');
  return restParam ? path.replace(new RegExp(`:${restParam}$`), '*') : path;
};

/** the caller of a route that requires one (its access was checked before the handler ran) */
export function callerOf(rc: RouteContext): Principal {
  if (!rc.principal) throw new Error(`${rc.request.method} ${rc.request.url}: route without a caller`);
  return rc.principal;
}

/**
 * A route's path parameters and query checked against the schemas it declares, like a procedure's input
 * (docs/api.md, "Validation"): NUL characters first, then every issue at once (a query key given twice
 * is one), in one 400 VALIDATION_FAILED.
 */
export function checkRouteInput(route: Route, params: Record<string, string>, query: URLSearchParams) {
  if (!route.params && !route.query) return;
  const entries = [...query.entries()];
  const issues: FieldIssue[] = nulCharacterIssues({ ...params, ...Object.fromEntries(entries) });
  if (!issues.length && route.params) {
    const parsed = route.params.safeParse(params);
    if (!parsed.success) issues.push(...parsed.error.issues.map(fieldIssue));
  }
  if (!issues.length && route.query) {
    const keys = entries.map(([key]) => key);
    const repeated = [...new Set(keys.filter((key, i) => keys.indexOf(key) !== i))];
    issues.push(
      ...repeated.map((path) => ({ path, message: 'must be given once', code: 'invalid_value' as const })),
    );
    const parsed = route.query.safeParse(Object.fromEntries(entries));
    if (!parsed.success)
      issues.push(
        ...parsed.error.issues.filter((i) => !repeated.includes(String(i.path[0]))).map(fieldIssue),
      );
  }
  if (issues.length)
    throw new AppError(
      'BAD_REQUEST',
      `Invalid input: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
      { reason: 'VALIDATION_FAILED', issues },
    );
}
