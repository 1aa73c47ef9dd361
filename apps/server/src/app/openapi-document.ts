import { appRouter } from '@plenum/api';
import type { Env } from '../env';
import { buildOpenApiDocument } from '../http/openapi';
import { type RouteSet, routeSetPaths } from '../http/routes';
import { VERSION } from '../version';

/** The OpenAPI document, built on its first read (docs/api.md). */
export function openApiDocument(env: Env, routeSets: RouteSet[]): () => unknown {
  let openapiDoc: unknown;
  return () => {
    if (!openapiDoc) {
      const doc = buildOpenApiDocument(
        appRouter,
        VERSION,
        env.APP_URL.replace(/:\d+$/, `:${env.PORT}`),
        routeSets.map(routeSetPaths),
      );
      // the development outbox answers 404 once an email provider is configured: not part of the API then
      if (env.RESEND_API_KEY && doc.paths) delete doc.paths['/dev/outbox'];
      openapiDoc = doc;
    }
    return openapiDoc;
  };
}
