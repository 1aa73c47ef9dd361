import { type ApiServices, accessRefusal, scopeRefusal } from '@plenum/api';
import type { Logger } from '@plenum/core';
import type { FastifyInstance } from 'fastify';
import { refuseBody, useBodyParsers } from '../http/body';
import { checkRouteInput, fastifyPath, type RouteSet, routeScope } from '../http/routes';

/**
 * Each domain's plain routes (uploads, downloads, the Pinning Service API, the export), in a scope whose
 * non-JSON bodies stay unread for the handler to stream.
 */
export async function registerPlainRoutes(
  app: FastifyInstance,
  routeSets: RouteSet[],
  { svc, log }: { svc: ApiServices; log: Logger },
) {
  await app.register(async (scope) => {
    useBodyParsers(scope, 'stream');
    for (const route of routeSets.flatMap((s) => s.routes)) {
      const tokenScope = routeScope(route);
      scope.route({
        method: route.method,
        url: fastifyPath(route.path, route.restParam),
        config: { access: route.access, rateLimit: route.rateLimit, errorFormat: route.errorFormat },
        ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
        // a token's scope and the caller's access are checked before any of the body is read
        onRequest: async (request) => {
          const principal = request.plenum?.principal ?? null;
          const refusal = scopeRefusal(principal, tokenScope) ?? accessRefusal(svc, principal, route.access);
          if (refusal) throw refusal;
        },
        preHandler: route.noBody || route.method === 'DELETE' ? refuseBody : undefined,
        handler: (request, reply) => {
          const { '*': rest, ...params } = request.params as Record<string, string>;
          if (route.restParam && rest !== undefined) params[route.restParam] = rest;
          const query = new URLSearchParams(request.url.split('?')[1] ?? '');
          // the declared params/query schemas, before the handler runs (http/routes.ts)
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
}
