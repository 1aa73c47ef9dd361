import type { AppRouter } from '@plenum/api';
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { LIVE_EVENTS_DOC } from '../events/docs';

export const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    db: z.enum(['ok', 'down']),
    ipfs: z.object({ provider: z.string(), ok: z.boolean() }),
  })
  .meta({ id: 'Health' });

const basePaths: ZodOpenApiPathsObject = {
  '/health': {
    get: {
      tags: ['system'],
      summary: 'Liveness and dependency status',
      responses: {
        '200': { description: 'Healthy', content: { 'application/json': { schema: healthSchema } } },
        '503': {
          description: 'The database is unreachable',
          content: { 'application/json': { schema: healthSchema } },
        },
      },
    },
  },
  '/api/docs': {
    get: {
      tags: ['system'],
      summary: 'Interactive API documentation',
      responses: { '200': { description: 'HTML page', content: { 'text/html': { schema: z.string() } } } },
    },
  },
  '/api/docs-json': {
    get: {
      tags: ['system'],
      summary: 'This OpenAPI document',
      responses: {
        '200': {
          description: 'OpenAPI 3.1 document',
          content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } },
        },
      },
    },
  },
};

export function buildOpenApiDocument(
  router: AppRouter,
  version: string,
  baseUrl: string,
  extra: ZodOpenApiPathsObject[],
) {
  const paths: ZodOpenApiPathsObject = { ...basePaths };
  for (const p of extra) {
    for (const [k, v] of Object.entries(p)) paths[k] = { ...(paths[k] ?? {}), ...v };
  }
  return generateOpenApiDocument(router, {
    title: 'Plenum API',
    description:
      'DAO governance, IPFS file storage and user management. Authenticate with `Authorization: Bearer <token>` (a session from /auth/login or /auth/siwe, or a personal access token) or the HttpOnly session cookie. Errors are `{ code, reason?, message, issues? }`.' +
      LIVE_EVENTS_DOC,
    version,
    baseUrl,
    paths,
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
  });
}
