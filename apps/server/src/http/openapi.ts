import { type AppRouter, listOperations, operationScope } from '@plenum/api';
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { LIVE_EVENTS_DOC } from '../events/docs';
import { errorBodySchema } from './openapi-errors';
import { documentedScope } from './routes';

export const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    db: z.enum(['ok', 'down']),
    ipfs: z.object({ provider: z.string(), ok: z.boolean() }),
  })
  .meta({ id: 'Health' });

export const readySchema = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    checks: z.object({
      database: z.enum(['ok', 'down']),
      migrations: z.enum(['ok', 'pending']),
      storage: z.enum(['ok', 'down']),
      shutdown: z.boolean(),
    }),
  })
  .meta({ id: 'Ready' });

const basePaths: ZodOpenApiPathsObject = {
  '/health': {
    get: {
      operationId: 'system-health',
      security: [],
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
  '/ready': {
    get: {
      operationId: 'system-ready',
      security: [],
      tags: ['system'],
      summary: 'Readiness for a load balancer: database, migrations, storage, not stopping',
      responses: {
        '200': { description: 'Ready', content: { 'application/json': { schema: readySchema } } },
        '503': {
          description: 'Not ready (a check failed, or the instance is stopping)',
          content: { 'application/json': { schema: readySchema } },
        },
      },
    },
  },
  '/api/docs': {
    get: {
      operationId: 'system-docs',
      security: [],
      tags: ['system'],
      summary: 'Interactive API documentation',
      responses: { '200': { description: 'HTML page', content: { 'text/html': { schema: z.string() } } } },
    },
  },
  '/api/docs-json': {
    get: {
      operationId: 'system-openapi',
      security: [],
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
  const doc = generateOpenApiDocument(router, {
    title: 'Plenum API',
    description:
      'DAO governance, IPFS file storage and user management. Authenticate with `Authorization: Bearer <token>` (a session from /auth/login or /auth/siwe, or a personal access token) or the HttpOnly session cookie. Errors are `{ code, reason?, message, issues? }`.' +
      LIVE_EVENTS_DOC,
    version,
    license: { name: 'MIT', identifier: 'MIT' },
    baseUrl,
    paths,
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
  });
  conformResponses(doc, router);
  return doc;
}

type Doc = ReturnType<typeof generateOpenApiDocument>;
interface Operation {
  description?: string;
  security?: unknown[];
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: { $ref?: string } }> }
  >;
}

const ERROR_REF = '#/components/schemas/ErrorBody';
const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid input (field issues listed)',
  401: 'Not signed in (or a bad signature)',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflicts with the current state',
  503: 'Service unavailable: retry later',
};

const errorJson = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: ERROR_REF } } },
});

/**
 * Makes the generated document say what the server answers: every error is the one error body (docs/api.md)
 * (`ErrorBody`, with `reason` and field `issues`), not trpc-to-openapi's narrower `error.*` shapes; a
 * procedure's success status is its meta's (201, 202, 204) instead of 200; and each operation lists the
 * error statuses it can answer (429 on every path, as every path is rate limited); a public procedure
 * declares its security empty, or optional; and each says the scope an access token needs (docs/api.md,
 * "The OpenAPI document").
 */
function conformResponses(doc: Doc, router: AppRouter) {
  doc.components ??= {};
  const components = doc.components as { schemas?: Record<string, unknown> };
  components.schemas ??= {};
  const schemas = components.schemas;
  if (!schemas.ErrorBody) schemas.ErrorBody = z.toJSONSchema(errorBodySchema, { target: 'openapi-3.0' });
  for (const name of Object.keys(schemas)) if (name.startsWith('error.')) delete schemas[name];

  const operations = Object.values(doc.paths ?? {}).flatMap((item) =>
    Object.entries(item as Record<string, Operation>).filter(
      ([, op]) => op && typeof op === 'object' && op.responses,
    ),
  );
  for (const [method, op] of operations) {
    // every write reads (or refuses) its body before the handler: malformed or oversized is answered
    if (method !== 'get' && method !== 'head') {
      op.responses!['400'] ??= errorJson('Invalid input (field issues listed)');
      op.responses!['413'] ??= errorJson('Request body too large');
      op.responses!['403'] ??= errorJson(
        'Not allowed (a session cookie sent from another origin: reason CSRF)',
      );
    }
    for (const response of Object.values(op.responses!)) {
      const json = response.content?.['application/json'];
      if (json?.schema?.$ref?.startsWith('#/components/schemas/error.')) json.schema = { $ref: ERROR_REF };
    }
    op.responses!['429'] ??= errorJson('Rate limited: retry after the Retry-After header');
    // any path refuses a control character in its query string (http/query-check.ts)
    op.responses!['400'] ??= errorJson('A control character in the query string (VALIDATION_FAILED)');
  }

  for (const operation of listOperations(router)) {
    const { meta } = operation;
    const openapi = meta.openapi;
    if (!openapi) continue;
    const method = openapi.method.toLowerCase();
    const op = (doc.paths?.[openapi.path] as Record<string, Operation> | undefined)?.[method];
    if (!op?.responses) continue;
    const scope = operationScope(operation);
    if (scope) Object.assign(op, documentedScope(op, scope));
    const signedIn = Boolean(op.security?.length);
    // a public operation says so (no credentials), an optional one that either way works
    op.security ??= meta.optionalAuth ? [{}, { bearerAuth: [] }] : [];
    const responses = op.responses;
    const status = meta.successStatus;
    if (status && status !== 200 && responses['200']) {
      responses[String(status)] = status === 204 ? { description: 'Done (no content)' } : responses['200'];
      delete responses['200'];
    }
    const add = (code: number, description: string) => {
      responses[String(code)] ??= errorJson(description);
    };
    // the reasons an operation answers beside its status (meta.errors): named in the description, so a
    // client reading the document knows which `reason` values to handle (docs/api.md, "Errors")
    for (const [code, reasons] of Object.entries(meta.errors ?? {})) {
      // a write's 403 may also be a cookie sent from another origin
      const all = code === '403' && method !== 'get' ? [...reasons, 'CSRF'] : reasons;
      responses[code] = errorJson(`${STATUS_TEXT[Number(code)] ?? 'Error'}: reason ${all.join(', ')}`);
    }
    add(400, 'Invalid input (field issues listed)');
    add(500, 'Internal server error');
    const write = method !== 'get';
    if (signedIn || write) {
      add(401, 'Not signed in (or a bad signature)');
      add(403, 'Not allowed');
    }
    if (openapi.path.includes('{') || write) add(404, 'Not found');
    if (write) {
      add(409, 'Conflicts with the current state');
      add(413, 'Request body too large');
      add(415, 'Unsupported content type');
    }
    if (openapi.path.startsWith('/ipfs/')) {
      add(404, 'Content not found');
      add(413, 'Content too large for this path');
      add(415, 'Content of a type this path does not serve');
      add(502, 'Every IPFS provider failed');
      add(504, 'Every IPFS provider timed out');
    }
  }
}
