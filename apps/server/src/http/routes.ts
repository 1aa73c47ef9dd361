import type { Access, ApiServices, RateBudget } from '@plenum/api';
import type { Logger, Principal } from '@plenum/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodOpenApiPathsObject } from 'zod-openapi';

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
  access: Access;
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

/** A domain's plain routes and their OpenAPI entries. */
export interface RouteSet {
  routes: Route[];
  openapiPaths: ZodOpenApiPathsObject;
}

/** `/ipfs/file/{cid}` → `/ipfs/file/:cid` */
export const fastifyPath = (template: string) => template.replace(/\{(\w+)\}/g, ':$1');

/** the caller of a route that requires one (its access was checked before the handler ran) */
export function callerOf(rc: RouteContext): Principal {
  if (!rc.principal) throw new Error(`${rc.request.method} ${rc.request.url}: route without a caller`);
  return rc.principal;
}
