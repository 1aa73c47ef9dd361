import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiServices } from '@plenum/api';
import type { Logger, Principal } from '@plenum/core';
import type { DbHandle } from '@plenum/db';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { Env } from '../env';

/** A plain Node route beside the tRPC procedures: multipart uploads, raw downloads, foreign APIs. */
export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  query: URLSearchParams;
  principal: Principal | null;
  token: string | null;
  ip: string;
  requestId: string;
  svc: ApiServices;
  log: Logger;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

export interface Route {
  method: Method;
  /** OpenAPI-style template, e.g. /ipfs/file/{cid} */
  path: string;
  /** the route reads no body: one with fields is refused before the handler runs */
  noBody?: boolean;
  handler(rc: RouteContext): Promise<void>;
}

export interface CompiledRoute extends Route {
  regex: RegExp;
  names: string[];
}

export function compileRoute(route: Route): CompiledRoute {
  const names: string[] = [];
  const pattern = route.path
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\{(\w+)\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
  return { ...route, regex: new RegExp(`^${pattern}/?$`), names };
}

export function matchRoute(routes: CompiledRoute[], method: string, pathname: string) {
  for (const r of routes) {
    if (r.method !== method && !(method === 'HEAD' && r.method === 'GET')) continue;
    const m = r.regex.exec(pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    try {
      r.names.forEach((n, i) => {
        params[n] = decodeURIComponent(m[i + 1]!);
      });
    } catch {
      continue;
    }
    return { route: r, params };
  }
  return null;
}

/** A domain's additions to the server: routes, their OpenAPI entries, lifecycle hooks. */
/** what every domain plugin is built from, once the database is ready */
export interface PluginContext {
  svc: ApiServices;
  dbHandle: DbHandle;
  env: Env;
}

export interface ServerPlugin {
  name: string;
  routes?: Route[];
  openapiPaths?: ZodOpenApiPathsObject;
  /** runs once the HTTP server exists (e.g. to attach Socket.IO) */
  attach?(server: import('node:http').Server): void | Promise<void>;
  stop?(): Promise<void>;
}
